#include "kube/kubeconfig.hpp"

#include <doctest/doctest.h>

namespace tazuna::kube {
namespace {

TEST_CASE("kubeconfig: malformed files are one-line errors in kubectl's words, never exceptions") {
  const std::pair<std::string, std::string> cases[] = {
      {"users:\n- name: u\n  user: {client-key-data: \"!!\"}\n",
       "error loading config file \"/k/config\": illegal base64 data at input byte 2"},
      {"clusters:\n- name: c\n- name: c\n",
       "error loading config file \"/k/config\": error converting *[]NamedCluster into *map[string]*api.Cluster: "
       "duplicate name \"c\" in list"},
      {"- a\n", "error loading config file \"/k/config\": kubeconfig is not a YAML mapping"},
      // Found by tests/fuzz (kubeconfig): yaml-cpp quotes the bad escape raw, which split the message.
      {std::string("a: \"x\\") + '\x01' + "\"\n",
       "error loading config file \"/k/config\": yaml: line 1: unknown escape character: \\x01"},
      {std::string(3000, '[') + std::string(3000, ']'),
       "error loading config file \"/k/config\": yaml: line 1: nesting too deep (more than 2000 levels)"},
  };
  for (const auto& [in, want] : cases) {
    const auto& captured = in;  // clang 14 cannot capture a structured binding
    CAPTURE(captured);
    auto parsed = ParseKubeconfig(in, "/k/config");
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().kind == util::ErrorKind::kInput);
    CHECK(parsed.error().message == want);
  }
}

}  // namespace
}  // namespace tazuna::kube
