#include "cli/export_defaults.hpp"

#include "kube/api_error.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

using nlohmann::json;

// One dry-run create of `doc` without `paths`, or the server's refusal.
struct Probe {
  kube::Client& client;
  const json& doc;
  int requests = 0;

  util::Result<json> Without(const std::vector<state::FieldPath>& paths) {
    json trial = doc;
    for (const auto& p : paths) state::RemoveField(trial, p);
    json& meta = trial["metadata"];
    meta["generateName"] = util::StrCat(meta.value("name", "x"), "-");
    meta.erase("name");
    ++requests;
    return client.Create(trial, kube::DryRun::kAll);
  }
};

bool Restored(const json& result, const json& doc, const state::FieldPath& p) {
  const json* now = state::FindField(result, p);
  const json* was = state::FindField(doc, p);
  return now != nullptr && was != nullptr && *now == *was;
}

// The server refused the object as invalid: some removed field was required (not a default).
bool Refused(const util::Error& e) { return kube::IsReason(e, "Invalid") || kube::IsReason(e, "BadRequest"); }

// Adds to `defaults` the paths of `set` the server restores; halves a set it refuses. An error other than a
// refusal ends the search: nothing can be told.
util::Status Search(Probe& probe, const std::vector<state::FieldPath>& set, std::vector<state::FieldPath>& defaults) {
  if (set.empty()) return util::Ok();
  auto result = probe.Without(set);
  if (result) {
    for (const auto& p : set) {
      if (Restored(*result, probe.doc, p)) defaults.push_back(p);
    }
    return util::Ok();
  }
  if (!Refused(result.error())) return result.error();
  if (set.size() == 1) return util::Ok();  // required: the object's own
  const auto mid = set.begin() + static_cast<std::ptrdiff_t>(set.size() / 2);
  if (auto st = Search(probe, {set.begin(), mid}, defaults); !st) return st;
  return Search(probe, {mid, set.end()}, defaults);
}

}  // namespace

DefaultsStripped StripServerDefaults(kube::Client& client, json& doc, const std::vector<state::FieldPath>& candidates) {
  DefaultsStripped out;
  if (candidates.empty()) return out;
  Probe probe{client, doc};
  std::vector<state::FieldPath> defaults;
  if (auto st = Search(probe, candidates, defaults); !st) {
    out.warning = "server defaults could not be told apart (a server-side dry-run create failed: " + st.error().message + ")";
    return out;
  }
  if (defaults.empty()) return out;
  // Together, too: the whole removal must come back as it was.
  auto check = probe.Without(defaults);
  if (!check) {
    out.warning = "server defaults could not be told apart (" + check.error().message + ")";
    return out;
  }
  for (const auto& p : defaults) {
    if (!Restored(*check, doc, p)) {
      out.warning = "server defaults could not be told apart (" + state::DescribeFieldPath(p) + " is not restored with the others)";
      return out;
    }
  }
  for (const auto& p : defaults) out.removed += state::RemoveField(doc, p) ? 1 : 0;
  return out;
}

}  // namespace tazuna::cli
