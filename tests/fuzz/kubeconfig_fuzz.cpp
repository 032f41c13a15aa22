// Kubeconfig parsing (kube::ParseKubeconfig) and resolution (kube::LoadRestConfig) of the same file,
// read through an in-memory file reader: errors are one line, and a file that parses resolves or
// fails cleanly for its current context and for each context it names.
#include <map>
#include <string>

#include "fuzz_check.hpp"
#include "kube/fakes.hpp"
#include "kube/kubeconfig.hpp"
#include "kube/rest_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size) {
  using namespace tazuna;
  const std::string text(fuzz::Text(data, size));
  auto parsed = kube::ParseKubeconfig(text, "/k/config");
  if (!parsed) {
    fuzz::CheckOneLine(parsed.error());
    fuzz::Check(parsed.error().message.rfind("error loading config file \"/k/config\": ", 0) == 0,
                "a kubeconfig error names the file in kubectl's words");
  }
  kube::testing::FakeFiles files;
  files.files = {{"/k/config", text}, {"/k/ca.crt", "CA"}, {"/k/token", "tok\n"}, {"/k/client.crt", "CERT"},
                 {"/k/client.key", "KEY"}};
  const util::Environment env({{"KUBECONFIG", "/k/config"}, {"HOME", "/home/fuzz"}, {"PWD", "/k"}});
  kube::ConfigFlags flags;
  auto rest = kube::LoadRestConfig(flags, env, files);
  if (!rest) {
    fuzz::Check(!rest.error().message.empty(), "a resolution error has a message");
  }
  fuzz::Check(parsed || !rest, "a file that does not parse does not resolve");
  if (!parsed) return 0;
  int tried = 0;
  for (const auto& [name, context] : parsed->contexts) {
    if (name.empty()) continue;  // an empty --context means "not given"
    if (++tried > 4) break;
    flags.context = name;
    auto named = kube::LoadRestConfig(flags, env, files);
    if (named) fuzz::Check(named->context_name == name, "--context picks that context");
  }
  return 0;
}
