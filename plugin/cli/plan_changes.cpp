#include "cli/plan_changes.hpp"

#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "cli/pipeline.hpp"
#include "cli/show_changes.hpp"
#include "state/apply/repair.hpp"
#include "state/store/secret_key.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

using util::StrCat;

std::optional<state::ChangeType> ChangeTypeOf(const std::string& name) {
  for (int i = 0; i <= static_cast<int>(state::ChangeType::kDrifted); ++i) {
    const auto type = static_cast<state::ChangeType>(i);
    if (name == state::ChangeTypeName(type)) return type;
  }
  return std::nullopt;
}

// kubectl's `kind.group/name -n namespace`, as the stale-plan messages name objects.
std::string Named(const state::StateKey& k, const std::string& namespace_name) {
  return ObjectName(k.group, k.kind, k.name) + (namespace_name.empty() ? "" : " -n " + namespace_name);
}

// The sync the plan was made for must be the one this connection would run: the same server, cluster, context
// namespace and repository (the plan's own flags, so only where it applies is compared).
util::Status CheckTarget(Context& ctx, SelectedCluster& at, const state::Plan& plan) {
  const state::PlanTarget& t = plan.target;
  SyncFlags flags{t.prune, t.allow_empty, t.take_ownership, {}, state::Repair::kAll};
  flags.takeover.names.insert(t.takeover_managers.begin(), t.takeover_managers.end());
  if (!t.repair.empty()) {
    auto repair = state::ParseRepair(t.repair);
    if (!repair) return repair.error();
    flags.repair = *repair;
  }
  const bool skip_identity = t.cluster_uid.empty() && t.cluster_root_ca_uid.empty();
  const state::Origin origin = FindOrigin(ctx, at.selection.file.path, &at.log());
  auto now = PlanTargetOf(at.client(), flags, origin, skip_identity);
  if (!now) return now.error();
  return state::CheckPlanTarget(plan, *now);
}

// The rows whose objects render as planned, as diff entries; a warning for each other row (removed rows have no
// body to show).
std::vector<state::DiffEntry> Renderable(const state::Plan& plan, const std::vector<state::DesiredManifest>& desired,
                                         util::Logger& log) {
  std::map<std::pair<std::string, std::string>, const state::PlanObject*> planned;
  for (const auto& o : plan.objects) planned[{o.manifest, o.key}] = &o;
  std::vector<state::DiffEntry> entries;
  for (const auto& row : plan.changes) {
    const auto type = ChangeTypeOf(row.change);
    auto parsed = state::ParseStateKey(row.key);
    if (!type || *type == state::ChangeType::kRemoved || !parsed) continue;
    const state::DesiredObject* found = nullptr;
    int index = -1;
    for (const auto& m : desired) {
      for (size_t i = 0; m.name == row.manifest && i < m.objects.size() && found == nullptr; ++i) {
        if (m.objects[i].key_string == row.key) found = &m.objects[i], index = static_cast<int>(i);
      }
    }
    if (found == nullptr) {
      log.Warning(StrCat(row.manifest, ": ", Named(*parsed, parsed->namespace_name),
                         ": changes not shown: tazuna.yaml no longer renders it"));
      continue;
    }
    const auto p = planned.find({row.manifest, row.key});
    if (p == planned.end() || found->hash_state != state::HashState::kKnown || p->second->hash != found->hash ||
        p->second->digest != state::PlanObjectDigest(*found)) {
      log.Warning(StrCat(row.manifest, ": ", Named(*parsed, found->identity.namespace_name),
                         ": changes not shown: the current render no longer matches the plan"));
      continue;
    }
    entries.push_back({row.manifest, *type, row.key, *parsed, row.old_key, row.old_hash, row.new_hash, index,
                       found->identity});
  }
  return entries;
}

}  // namespace

util::Status ShowPlanChanges(Context& ctx, const ConnectionOptions& connection, const std::string& file,
                             const state::Plan& plan) {
  const FileOptions selection{file, plan.selection.environment, plan.selection.tags, plan.selection.manifests};
  auto at = OpenSelected(ctx, selection, connection);
  if (!at) return at.error();
  if (auto st = CheckTarget(ctx, *at, plan); !st) return st;
  util::Logger& log = at->log();
  auto run = RenderForCluster(ctx, *at, connection, {});
  if (!run) return run.error();
  if (state::AnySecret(run->manifests)) {  // a Secret's planned hash is the keyed one
    auto key = state::LoadSecretHashKey(at->client(), state::CreateKey::kNo);
    if (!key) return key.error();
    state::KeySecretHashes(run->manifests, *key);
  }
  const auto entries = Renderable(plan, run->manifests, log);
  if (entries.empty()) return util::Ok();
  state::TakeoverManagers takeover;
  takeover.names.insert(plan.target.takeover_managers.begin(), plan.target.takeover_managers.end());
  const state::Origin origin = FindOrigin(ctx, at->selection.file.path, nullptr);
  return ShowChanges(ctx, {at->client(), log, takeover}, entries, run->manifests, origin.Mark(),
                     YieldRulesOf(at->selection.manifests));
}

}  // namespace tazuna::cli
