#include "cli/orphans.hpp"

#include <algorithm>

#include "cli/build_info.hpp"
#include "cli/pipeline.hpp"
#include "kube/served_version.hpp"
#include "manifest/load.hpp"
#include "state/apply/ownership.hpp"
#include "state/plan/plan.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

using util::StrCat;

namespace {

std::vector<std::string> NamesOf(const manifest::TazunaFile& file) {
  std::vector<std::string> out;
  for (const auto& m : file.manifests) out.push_back(m.name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

bool NamesDependOnEnvironment(Context& ctx, const manifest::TazunaFile& file) {
  if (!file.environment.empty()) return false;
  auto text = ctx.files.ReadFile(file.path);
  if (!text || text->find("Environment") != std::string::npos) return true;  // {{ if eq .Environment "prod" }} ...
  manifest::LoadOptions probe;
  probe.environment = "tazuna-orphan-probe";
  probe.tool_version = std::string(BuildVersion());
  auto other = manifest::LoadTazunaFile(file.path, probe, ctx.files);
  return !other || NamesOf(*other) != NamesOf(file);
}

util::Status CheckOrphanBasis(Context& ctx, const manifest::TazunaFile& file) {
  if (!NamesDependOnEnvironment(ctx, file)) return util::Ok();
  auto e = util::MakeError(util::ErrorKind::kUsage,
                           StrCat("--orphaned: the manifests ", file.path, " names depend on the environment, so a "
                                  "manifest another environment lists would look orphaned"));
  e.hint = "Name the environment with -e ENV.";
  return e;
}

util::Result<Orphans> FindOrphans(kube::Client& client, const manifest::TazunaFile& file, const state::Origin& origin) {
  auto items = client.List("v1", "ConfigMap", state::kStateNamespace, "", kube::ListDetail::kMetadataQuiet);
  if (!items) return items.error();
  state::StateStore store(client);
  Orphans out;
  const std::string prefix = state::kConfigMapPrefix;
  for (const auto& cm : *items) {
    const std::string name = util::MetaString(cm, "name");
    // A manifest name has no '.': such a name is a spill shard.
    if (!util::StartsWith(name, prefix) || name.find('.', prefix.size()) != std::string::npos) continue;
    const std::string which = name.substr(prefix.size());
    const bool listed = std::any_of(file.manifests.begin(), file.manifests.end(),
                                    [&](const manifest::Manifest& m) { return m.name == which; });
    if (listed) continue;
    auto st = store.Read(which);
    if (!st) {
      out.unreadable.push_back(StrCat("manifest ", util::Quote(which), ": its state cannot be read (", st.error().message, ")"));
      continue;
    }
    if (!st->exists()) continue;  // deleted since the LIST
    if (st->metadata.origin == origin) {
      out.ours.push_back(std::move(*st));
      continue;
    }
    out.skipped.push_back(StrCat("manifest ", util::Quote(which), ": ",
                                 st->metadata.origin.empty() ? "its state has no origin (not written from this repository)"
                                                             : "managed from " + st->metadata.origin.Describe()));
  }
  return out;
}

std::string UnknownNamespaces(const state::ManifestState& st, state::IdentityResolver& ids) {
  if (!st.metadata.context_namespace.empty()) return "";
  for (const auto& [key, hash] : st.entries) {
    auto k = state::ParseStateKey(key);
    if (k && k->namespace_name.empty() && ids.IsNamespaced(k->ApiVersion(), k->kind) != false) {
      return StrCat(k->kind, " ", k->name);
    }
  }
  return "";
}

util::Result<LiveRecorded> LiveObjectsOf(kube::Client& client, const state::ManifestState& st, util::Logger& log) {
  LiveRecorded out;
  if (st.entries.empty()) return out;
  auto scopes = NewDiscoveryScopes(client);
  state::IdentityResolver ids(scopes.get(), client.config().namespace_name);
  if (auto where = UnknownNamespaces(st, ids); !where.empty()) {
    return util::MakeError(util::ErrorKind::kConflict, StrCat("cannot tell whether its objects live: it records no context "
                                                              "namespace, so where ", where, " lives is unknown"));
  }
  std::vector<state::DesiredManifest> desired(1);
  desired[0].name = st.manifest;
  auto inputs = state::PlanSyncFrom(client, std::move(desired), {{st.manifest, st}}, ids);
  if (!inputs) return inputs.error();
  std::set<std::string> kinds;  // a kind whose CRD serves no version keeps its objects where no LIST reaches
  for (const auto& e : (*inputs)[0].diff) {
    if (!kinds.insert(e.parsed.group + "/" + e.parsed.kind).second || state::BuiltinGroup(e.parsed.group)) continue;
    const kube::ServedVersion v = kube::ServedVersionOf(client, e.parsed.group, e.parsed.version, e.parsed.kind);
    if (!v.error.empty() || (v.version.empty() && !v.gone)) {
      return util::MakeError(util::ErrorKind::kApi, StrCat("cannot tell whether its ", e.parsed.kind, " objects live: ",
                                                           v.error.empty() ? "their CRD serves no version" : v.error));
    }
  }
  std::set<state::ObjectIdentity> unknown;
  const state::LiveOwners owners =
      state::ReadLiveOwners(client, *inputs, {state::OwnerRows::kChanges, nullptr, &unknown}, log);
  if (!unknown.empty()) {
    return util::MakeError(util::ErrorKind::kApi, StrCat("cannot tell whether ", unknown.size(), " of the objects it records live: ",
                                                         unknown.begin()->Describe(), " could not be read"));
  }
  for (const auto& [id, owner] : owners) {
    const bool ours = owner.manifest == st.manifest || (owner.manifest.empty() && owner.tazuna_manager);
    if (!ours) continue;  // another manifest's now, or nobody's
    if (out.count++ == 0) {
      out.first = ObjectName(id.group, id.kind, id.name) + (id.namespace_name.empty() ? "" : " -n " + id.namespace_name);
    }
  }
  return out;
}

void WarnRetired(Context& ctx, kube::Client& client, const manifest::TazunaFile& file, const state::Origin& origin,
                 util::Logger& log) {
  if (NamesDependOnEnvironment(ctx, file)) {
    log.Log(1, "not looking for states tazuna.yaml no longer names: its manifests depend on -e");
    return;
  }
  auto orphans = FindOrphans(client, file, origin);
  if (!orphans) {
    log.Log(1, "cannot look for states tazuna.yaml no longer names: " + orphans.error().message);
    return;
  }
  constexpr size_t kChecked = 3;  // states read for live objects; more are summed up by what they record
  size_t checked = 0, more = 0;
  for (const auto& st : orphans->ours) {
    if (st.entries.empty()) continue;
    if (checked++ >= kChecked) {
      ++more;
      continue;
    }
    auto live = LiveObjectsOf(client, st, log);
    if (live && live->count == 0) continue;
    const std::string what = live ? StrCat(live->count, live->count == 1 ? " object" : " objects", " it installed still live (",
                                           live->first, ")")
                                  : "whether its objects still live cannot be told (" + live.error().message + ")";
    log.Warning(StrCat("manifest ", util::Quote(st.manifest), " is no longer in tazuna.yaml, but ", what,
                       ": uninstall with \"kubectl tazuna state delete --orphaned\", or stop tracking with "
                       "\"kubectl tazuna state forget --orphaned --leave-objects\""));
  }
  if (more > 0) {
    log.Warning(StrCat(more, more == 1 ? " more state" : " more states", " of manifests no longer in tazuna.yaml still "
                       "record objects (see state status --all)"));
  }
}

}  // namespace tazuna::cli
