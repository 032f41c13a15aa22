#include "cli/complete_namespaces.hpp"

#include <ostream>

#include "cli/build_info.hpp"
#include "kube/client.hpp"
#include "kube/rest_config.hpp"
#include "util/json_get.hpp"

namespace tazuna::cli {

namespace {

// A tab press must not hang on a server that does not answer.
constexpr char kCompletionRequestTimeout[] = "5s";

}  // namespace

std::vector<std::string> ClusterNamespaces(Context& ctx, kube::ConfigFlags flags) {
  if (flags.request_timeout.empty()) flags.request_timeout = kCompletionRequestTimeout;
  std::vector<std::string> names;
  auto config = kube::LoadRestConfig(flags, ctx.env, ctx.files);
  if (!config) return names;
  std::ostream discard(nullptr);  // server warnings and logs would land in the user's command line
  util::Logger log(discard, 0);
  auto transport = ctx.make_transport(*config, log);
  kube::Client client(std::move(*config), *transport, ctx.processes, log, ctx.clock, ctx.env);
  client.set_version(BuildVersion(), BuildCommit());
  auto items = client.List("v1", "Namespace", "", "", kube::ListDetail::kMetadataQuiet);
  if (!items) return names;
  for (const auto& item : *items) {
    const auto meta = item.find("metadata");
    if (meta != item.end()) names.push_back(util::JsonString(*meta, "name"));
  }
  return names;
}

}  // namespace tazuna::cli
