#include "cli/print/printer.hpp"

#include <sstream>

#include <doctest/doctest.h>

namespace tazuna::cli::print {
namespace {

using Rows = std::vector<std::string>;

Renderers<Rows> TestRenderers() {
  Renderers<Rows> r;
  r.machine = [](const Rows& rows) {
    std::vector<nlohmann::json> items;
    for (const auto& row : rows) items.push_back({{"name", row}});
    return ListOf(std::move(items));
  };
  r.human = [](const Rows& rows, Format format, std::ostream& out) {
    for (const auto& row : rows) out << row << (format == Format::kWide ? " (wide)" : "") << '\n';
  };
  r.names = [](const Rows& rows) {
    std::vector<ObjectRef> refs;
    for (const auto& row : rows) refs.push_back({"apps", "Deployment", row});
    return refs;
  };
  return r;
}

TEST_CASE("printer: -o picks the printer once, in one place") {
  struct Case {
    std::string output;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"table", "a\nb\n"},
      {"wide", "a (wide)\nb (wide)\n"},
      {"json",
       "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"name\": \"a\"\n        },\n"
       "        {\n            \"name\": \"b\"\n        }\n    ],\n    \"kind\": \"List\"\n}\n"},
      {"yaml", "apiVersion: v1\nitems:\n- name: a\n- name: b\nkind: List\n"},
      {"name", "deployment.apps/a\ndeployment.apps/b\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.output);
    auto format = ParseFormat(c.output, {"table", "wide", "json", "yaml", "name"});
    REQUIRE(format);
    std::ostringstream out;
    NewPrinter(*format, TestRenderers())->Print({"a", "b"}, out);
    CHECK(out.str() == c.want);
  }
}

TEST_CASE("printer: an unknown format lists the allowed ones, sorted") {
  auto format = ParseFormat("wide", {"table", "json", "yaml"});
  REQUIRE_FALSE(format);
  CHECK(format.error().kind == util::ErrorKind::kUsage);
  CHECK(format.error().message ==
        "unable to match a printer suitable for the output format \"wide\", allowed formats are: json,table,yaml");
}

TEST_CASE("printer: -o name prints kubectl's kind[.group]/name, kind lower-cased") {
  struct Case {
    ObjectRef ref;
    std::string want;
  };
  const std::vector<Case> cases = {
      {{"", "ConfigMap", "foo"}, "configmap/foo"},
      {{"apps", "Deployment", "nginx"}, "deployment.apps/nginx"},
      {{"apiextensions.k8s.io", "CustomResourceDefinition", "widgets.example.com"},
       "customresourcedefinition.apiextensions.k8s.io/widgets.example.com"},
      {{"rbac.authorization.k8s.io", "ClusterRole", "view"}, "clusterrole.rbac.authorization.k8s.io/view"},
      {{"", "", "app__v1__Thing__bad"}, "app__v1__Thing__bad"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.want);
    CHECK(ResourceName(c.ref) == c.want);
  }
}

TEST_CASE("printer: -o name of no rows prints nothing, no headers") {
  auto format = ParseFormat("name", {"table", "name"});
  REQUIRE(format);
  std::ostringstream out;
  NewPrinter(*format, TestRenderers())->Print({}, out);
  CHECK(out.str() == "");
}

}  // namespace
}  // namespace tazuna::cli::print
