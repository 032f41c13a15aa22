#include "cli/show_changes.hpp"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "state/marks.hpp"
#include "util/strings.hpp"
#include "util/yaml_emit.hpp"

namespace tazuna::cli {

using nlohmann::json;

namespace {

// kubectl diff's masking: equal values "***", changed ones "*** (before)" / "*** (after)".
void MaskSecret(json& live, json& merged) {
  if (merged.value("kind", "") != "Secret" || merged.value("apiVersion", "") != "v1") return;
  for (const char* field : {"data", "stringData"}) {
    const json before = live.is_object() ? live.value(field, json::object()) : json::object();
    const json after = merged.value(field, json::object());
    const auto mask = [&](json& side, const char* changed) {
      if (!side.is_object() || !side.contains(field) || !side[field].is_object()) return;
      for (auto& [k, v] : side[field].items()) {
        const bool same = before.contains(k) && after.contains(k) && before[k] == after[k];
        v = same ? "***" : changed;
      }
    };
    mask(live, "*** (before)");
    mask(merged, "*** (after)");
  }
}

void Strip(json& object) {
  if (object.is_object() && object.contains("metadata")) object["metadata"].erase("managedFields");
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

util::Status WriteSides(kube::Client& client, const state::DiffEntry& e, const json& object,
                        const std::string& live_dir, const std::string& merged_dir) {
  const state::StateKey& k = e.parsed;
  json live = json::object();
  auto got = client.Get({k.ApiVersion(), k.kind, e.identity.namespace_name, k.name});
  if (got) {
    live = *got;
  } else if (!kube::IsReason(got.error(), "NotFound")) {
    return got.error();
  }
  kube::ApplyOptions dry;
  dry.dry_run = kube::DryRun::kAll;
  auto merged = client.Apply(state::WithOwnershipMarks(object, e.manifest), dry);  // as sync applies it
  if (!merged) return merged.error();
  Strip(live);
  Strip(*merged);
  MaskSecret(live, *merged);
  const std::string name = FileName(k);
  if (got) std::ofstream(live_dir + "/" + name) << util::EmitYaml(live);
  std::ofstream(merged_dir + "/" + name) << util::EmitYaml(*merged);
  return util::Ok();
}

}  // namespace

util::Status ShowChanges(Context& ctx, kube::Client& client, const std::vector<state::DiffEntry>& entries,
                         const std::vector<state::DesiredManifest>& desired) {
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
      if (d.name != e.manifest) continue;
      st = WriteSides(client, e, d.objects[static_cast<size_t>(e.object_index)].object, live_dir, merged_dir);
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
