// SyncEngine::Prune: deletes removed objects after every apply, in reverse dependency order.
#include <set>

#include "state/sync_engine.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

namespace {

// group/kind/namespace/name of every rendered object: such an object is never pruned, whichever
// manifest or apiVersion renders it now.
std::set<std::string> RenderedIdentities(const std::vector<SyncInput>& inputs) {
  std::set<std::string> out;
  for (const auto& in : inputs) {
    for (const auto& d : in.desired.objects) {
      out.insert(d.key.group + "/" + d.key.kind + "/" + d.key.namespace_name + "/" + d.key.name);
    }
  }
  return out;
}

// 0: ordinary objects (custom resources included), 1: CRDs, 2: Namespaces.
int PruneRank(const StateKey& k) {
  if (k.group.empty() && k.kind == "Namespace") return 2;
  if (k.group == "apiextensions.k8s.io" && k.kind == "CustomResourceDefinition") return 1;
  return 0;
}

}  // namespace

void SyncEngine::Prune(std::vector<SyncInput>& inputs, Checkpointer& cp, const SyncOptions& o,
                       std::vector<SyncResult>& out) {
  const auto rendered = RenderedIdentities(inputs);
  std::vector<SyncResult> ranks[3];
  for (const auto& in : inputs) {
    for (auto it = in.diff.rbegin(); it != in.diff.rend(); ++it) {
      if (it->type != ChangeType::kRemoved) continue;
      const StateKey& k = it->parsed;
      SyncResult r{it->manifest, it->key, k, Verb::kKept, it->old_hash, {}};
      if (rendered.count(k.group + "/" + k.kind + "/" + k.namespace_name + "/" + k.name) > 0) {
        if (o.prune && o.dry_run == kube::DryRun::kNone) cp.Set(it->manifest, it->key, std::nullopt);
        r.verb = Verb::kKept;  // still rendered elsewhere: forget the old key, keep the object
      }
      ranks[o.prune ? PruneRank(k) : 0].push_back(std::move(r));
    }
  }
  for (auto& rank : ranks) {
    util::ParallelFor(rank.size(), o.prune ? o.concurrency : 1, [&](size_t i) {
      SyncResult& r = rank[i];
      const StateKey& k = r.parsed;
      if (!o.prune || rendered.count(k.group + "/" + k.kind + "/" + k.namespace_name + "/" + k.name) > 0) return;
      const std::string api_version = k.group.empty() ? k.version : k.group + "/" + k.version;
      auto st = Limited([&] {
        return client_.Delete({api_version, k.kind, k.namespace_name, k.name}, kube::Propagation::kBackground, o.dry_run);
      });
      // NotFound (object or its whole kind gone, e.g. a deleted CRD) means there is nothing to delete.
      if (st || kube::IsReason(st.error(), "NotFound") || st.error().kind == util::ErrorKind::kNotFound) {
        r.verb = Verb::kDeleted;
        if (o.dry_run == kube::DryRun::kNone) cp.Set(r.manifest, r.key, std::nullopt);
      } else {
        r.verb = Verb::kFailed;
        r.error = st.error();
      }
      Tick();
      if (o.dry_run == kube::DryRun::kNone) {
        if (auto fst = cp.MaybeFlush(); !fst) log_.Warning(fst.error().message);
      }
    });
    for (auto& r : rank) out.push_back(std::move(r));
  }
}

}  // namespace tazuna::state
