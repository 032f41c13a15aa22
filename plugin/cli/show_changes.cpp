#include "cli/show_changes.hpp"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "state/apply/drift_fields.hpp"
#include "state/diff/live_compare.hpp"
#include "util/json_get.hpp"
#include "util/secret_mask.hpp"
#include "util/strings.hpp"
#include "util/yaml_emit.hpp"

namespace tazuna::cli {

using nlohmann::json;

namespace {

// kubectl diff's masking: equal values "***", changed ones "*** (before)" / "*** (after)".
void MaskSecret(json& live, json& merged) {
  if (!util::IsSecret(merged)) return;
  const json unmasked_live = live;
  const json unmasked_merged = merged;
  const auto masker = [&](const char* changed) {
    return [&, changed](std::string_view field, const std::string& key) {
      const std::string f(field);
      const json before = unmasked_live.is_object() ? unmasked_live.value(f, json::object()) : json::object();
      const json after = unmasked_merged.value(f, json::object());
      const bool same = before.contains(key) && after.contains(key) && before[key] == after[key];
      return std::string(same ? util::kSecretMask : changed);
    };
  };
  util::MaskSecretValues(live, masker("*** (before)"));
  util::MaskSecretValues(merged, masker("*** (after)"));
}

void Strip(json& object) {
  if (object.is_object() && object.contains("metadata") && object["metadata"].is_object()) {
    object["metadata"].erase("managedFields");
  }
}

std::string FileName(const state::StateKey& k) {
  return util::StrCat(k.group.empty() ? "" : k.group + ".", k.version, ".", k.kind, ".",
                      k.namespace_name.empty() ? "" : k.namespace_name + ".", k.name);
}

std::vector<std::string> DiffCommand(const util::Environment& env) {
  std::vector<std::string> argv = {"diff", "-u", "-N"};
  const std::string external = env.GetOr("KUBECTL_EXTERNAL_DIFF", "");
  if (external.empty()) return argv;
  // As kubectl: split on spaces, keep only extra arguments that look like flags or values.
  const auto parts = util::Split(external, ' ');
  argv = {parts[0]};
  const std::regex safe("^[a-zA-Z0-9-=]+$");
  for (size_t i = 1; i < parts.size(); ++i) {
    if (std::regex_match(parts[i], safe)) argv.push_back(parts[i]);
  }
  return argv;
}

util::Status WriteSides(const state::TakeoverContext& c, const state::DiffEntry& e, const json& object,
                        const std::string& origin_mark, const std::vector<manifest::YieldRule>& yields,
                        const std::string& live_dir, const std::string& merged_dir) {
  const state::StateKey& k = e.parsed;
  auto got = state::GetLive(c.client, k, e.identity.namespace_name);
  if (!got) return got.error();
  json live = got->value_or(json::object());
  json body = object;  // as the sync applies it: without the fields left to the writers that own them now
  if (got->has_value()) {
    if (const auto fields = state::ReadLiveFields(util::JsonObject(live, "metadata"))) {
      state::StripYielded(body, e.identity, *fields, yields);
    }
  }
  auto applied = state::DryRunApply(c.client, body, state::Marks{e.manifest, origin_mark});
  if (!applied) return applied.error();
  // What the sync removes beyond the apply: fields earlier tools shared with tazuna's last apply.
  auto preview = state::PreviewTakeover(c, live, std::move(*applied), state::PreviewScope::kSync);
  if (!preview.warning.empty()) c.log.Warning(preview.warning);
  json* merged = &preview.merged;
  Strip(live);
  Strip(*merged);
  MaskSecret(live, *merged);
  const std::string name = FileName(k);
  if (got->has_value()) std::ofstream(live_dir + "/" + name) << util::EmitYaml(live);
  std::ofstream(merged_dir + "/" + name) << util::EmitYaml(*merged);
  return util::Ok();
}

}  // namespace

util::Status ShowChanges(Context& ctx, const state::TakeoverContext& takeover,
                         const std::vector<state::DiffEntry>& entries,
                         const std::vector<state::DesiredManifest>& desired, const std::string& origin_mark,
                         const std::map<std::string, std::vector<manifest::YieldRule>>& yields) {
  static const std::vector<manifest::YieldRule> kNone;
  char tmpl[] = "/tmp/kubectl-tazuna-diff-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) return util::MakeError(util::ErrorKind::kInternal, "cannot create a temp dir");
  const std::string root = tmpl, live_dir = root + "/LIVE", merged_dir = root + "/MERGED";
  std::error_code ec;
  util::Status st;
  if (!std::filesystem::create_directories(live_dir, ec) || !std::filesystem::create_directories(merged_dir, ec)) {
    st = util::MakeError(util::ErrorKind::kInternal,
                         util::StrCat("cannot create directories in ", root, ": ", ec.message()));
  }
  for (const auto& e : entries) {
    if (!st) break;
    if (e.type == state::ChangeType::kRemoved || e.object_index < 0) continue;
    for (const auto& d : desired) {
      // A missing row of a manifest not rendered (its state stood for it) has no body to show.
      if (d.name != e.manifest || (e.type == state::ChangeType::kMissing && d.from_state)) continue;
      const auto rules = yields.find(d.name);
      st = WriteSides(takeover, e, d.objects[static_cast<size_t>(e.object_index)].object, origin_mark,
                      rules == yields.end() ? kNone : rules->second, live_dir, merged_dir);
    }
    if (!st) break;
  }
  if (st) {
    util::ProcessRequest req;
    req.argv = DiffCommand(ctx.env);
    req.argv.insert(req.argv.end(), {live_dir, merged_dir});
    req.env = ctx.env.vars();
    auto r = ctx.processes.Run(req);
    if (!r) {
      st = r.error();
    } else {
      ctx.out << r->out;
    }
  }
  std::filesystem::remove_all(root, ec);  // best effort: a leftover temp dir is harmless
  return st;
}

}  // namespace tazuna::cli
