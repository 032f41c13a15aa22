#include "cli/complete_namespaces.hpp"

#include <functional>
#include <ostream>

#include "cli/build_info.hpp"
#include "kube/client.hpp"
#include "kube/rest_config.hpp"
#include "cli/pipeline.hpp"
#include "state/plan/history.hpp"
#include "util/json_get.hpp"

namespace tazuna::cli {

namespace {

// A tab press must not hang on a server that does not answer.
constexpr char kCompletionRequestTimeout[] = "5s";

// Runs `read` with a client for `flags` that logs nothing (server warnings and logs would land in the
// user's command line); no names when the kubeconfig does not load.
std::vector<std::string> WithQuietClient(Context& ctx, kube::ConfigFlags flags,
                                         const std::function<std::vector<std::string>(kube::Client&, util::Logger&)>& read) {
  if (flags.request_timeout.empty()) flags.request_timeout = kCompletionRequestTimeout;
  auto config = kube::LoadRestConfig(flags, ctx.env, ctx.files);
  if (!config) return {};
  std::ostream discard(nullptr);
  util::Logger log(discard, 0);
  auto transport = ctx.make_transport(*config, log);
  kube::Client client(std::move(*config), *transport, ctx.processes, log, ctx.clock, ctx.env);
  client.set_version(BuildVersion(), BuildCommit());
  return read(client, log);
}

}  // namespace

std::vector<std::string> ClusterNamespaces(Context& ctx, kube::ConfigFlags flags) {
  return WithQuietClient(ctx, std::move(flags), [](kube::Client& client, util::Logger&) {
    std::vector<std::string> names;
    auto items = client.List("v1", "Namespace", "", "", kube::ListDetail::kMetadataQuiet);
    if (!items) return names;
    for (const auto& item : *items) {
      const auto meta = item.find("metadata");
      if (meta != item.end()) names.push_back(util::JsonString(*meta, "name"));
    }
    return names;
  });
}

std::vector<std::string> ClusterRevisions(Context& ctx, kube::ConfigFlags flags) {
  return WithQuietClient(ctx, std::move(flags), [](kube::Client& client, util::Logger& log) {
    std::vector<std::string> ids;
    auto revisions = state::HistoryStore(client).List(log);
    if (!revisions) return ids;
    for (const auto& r : *revisions) ids.push_back(r.id);
    return ids;
  });
}

std::vector<std::string> ClusterStateKeys(Context& ctx, kube::ConfigFlags flags, const std::string& manifest) {
  return WithQuietClient(ctx, std::move(flags), [&manifest](kube::Client& client, util::Logger&) {
    std::vector<std::string> keys;
    state::StateStore store = NewStateStore(client);
    auto manifests = store.ListManifests();
    if (!manifests) return keys;
    for (const auto& m : *manifests) {
      if (!manifest.empty() && m != manifest) continue;
      auto st = store.Read(m);
      if (!st) continue;
      for (const auto& [key, hash] : st->entries) keys.push_back(key);
    }
    return keys;
  });
}

}  // namespace tazuna::cli
