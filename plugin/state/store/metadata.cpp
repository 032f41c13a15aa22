// `_metadata` of a state ConfigMap: the Go tool's fields, then ours, written so both tools read each other's.
#include <algorithm>

#include "manifest/names.hpp"
#include "state/store/store.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::ErrorKind;
using util::MakeError;
using util::StrCat;

namespace {

std::string OriginJson(const Origin& o) {
  return StrCat("{\"path\":", json(o.path).dump(), ",\"repository\":", json(o.repository).dump(), "}");
}

std::string RenderRecordJson(const Metadata& m) {
  if (m.render_digest.empty()) return "";
  std::string out =
      StrCat(",\"renderDigest\":", json(m.render_digest).dump(), ",\"entriesDigest\":", json(m.entries_digest).dump());
  if (!m.crd_scopes.empty()) {
    json scopes = json::object();
    for (const auto& [group_kind, namespaced] : m.crd_scopes) {
      scopes[group_kind] = namespaced ? "Namespaced" : "Cluster";
    }
    out += ",\"crdScopes\":" + scopes.dump();
  }
  if (!m.kind_scopes.empty()) out += ",\"kindScopes\":" + json(m.kind_scopes).dump();
  return out;
}

// `field` of `doc` as a map of "group/Kind" to one of `allowed`; false when it is there but not such a map.
bool ParseScopes(const json& doc, const char* field, std::initializer_list<std::string_view> allowed,
                 std::map<std::string, std::string>& out) {
  out.clear();
  const auto it = doc.find(field);
  if (it == doc.end()) return true;
  if (!it->is_object()) return false;
  for (const auto& [group_kind, scope] : it->items()) {
    if (!scope.is_string() || std::find(allowed.begin(), allowed.end(), scope.get<std::string>()) == allowed.end()) {
      return false;
    }
    out[group_kind] = scope.get<std::string>();
  }
  return true;
}

// A render record of the wrong type is no record (the manifest is rendered), never an unreadable state.
void ParseRenderRecord(const json& doc, Metadata& m) {
  for (auto [field, out] :
       {std::pair{"renderDigest", &m.render_digest}, std::pair{"entriesDigest", &m.entries_digest}}) {
    const json value = doc.value(field, json());
    *out = value.is_string() ? value.get<std::string>() : "";
  }
  m.crd_scopes.clear();
  std::map<std::string, std::string> crds;
  if (!ParseScopes(doc, "crdScopes", {"Namespaced", "Cluster"}, crds) ||
      !ParseScopes(doc, "kindScopes", {"Namespaced", "Cluster", "Unknown"}, m.kind_scopes)) {
    m.render_digest.clear();
    m.kind_scopes.clear();
    return;
  }
  for (const auto& [group_kind, scope] : crds) m.crd_scopes[group_kind] = scope == "Namespaced";
}

util::Status ParseStrings(const std::string& configmap, const json& doc, Metadata& m) {
  for (auto [field, out] : {std::pair{"gitCommitHash", &m.git_commit_hash},
                            std::pair{"lastSyncedAt", &m.last_synced_at},
                            std::pair{"contextNamespace", &m.context_namespace}}) {
    const json value = doc.value(field, json());
    if (!value.is_null() && !value.is_string()) {
      return MakeError(ErrorKind::kInput, StrCat("configmap ", configmap, ": _metadata ", field, " is not a string"));
    }
    *out = value.is_string() ? value.get<std::string>() : "";
  }
  if (!m.context_namespace.empty()) {  // it becomes a path segment of requests: never trusted as read
    if (auto problem = manifest::NamespaceProblem(m.context_namespace)) {
      return MakeError(ErrorKind::kInput, StrCat("configmap ", configmap, ": _metadata contextNamespace: ", *problem));
    }
  }
  return util::Ok();
}

util::Status ParseOrigins(const std::string& configmap, const json& doc, Metadata& m) {
  // An origin that does not read as {repository, path} is an error, never "no origin" (which a sync would
  // claim as the Go tool's state).
  const auto origin_of = [&](const json& o, const char* what) -> util::Result<Origin> {
    const json repository = o.is_object() ? o.value("repository", json()) : json(), path = o.is_object() ? o.value("path", json()) : json();
    if (!repository.is_string() || !path.is_string()) {
      return MakeError(ErrorKind::kInput, StrCat("configmap ", configmap, ": _metadata ", what, " is not {repository, path}"));
    }
    return Origin{repository.get<std::string>(), path.get<std::string>()};
  };
  if (doc.contains("origin") && !doc.at("origin").is_null()) {
    auto origin = origin_of(doc.at("origin"), "origin");
    if (!origin) return origin.error();
    m.origin = std::move(*origin);
  }
  m.taken_from.clear();
  const json taken = doc.value("takenFrom", json::array());
  if (!taken.is_array()) {
    return MakeError(ErrorKind::kInput, StrCat("configmap ", configmap, ": _metadata takenFrom is not a list"));
  }
  for (const auto& o : taken) {
    if (!o.is_object()) {
      return MakeError(ErrorKind::kInput,
                       StrCat("configmap ", configmap, ": _metadata takenFrom is not a list of origins"));
    }
    auto from = origin_of(o, "takenFrom");
    if (!from) return from.error();
    m.taken_from.push_back(std::move(*from));
  }
  return util::Ok();
}

util::Status ParseShards(const std::string& configmap, const json& doc, Metadata& m) {
  m.shards.clear();
  const json shards = doc.value("shards", json());
  if (!shards.is_null() && !shards.is_number_integer() && !shards.is_array()) {
    return MakeError(ErrorKind::kInput, StrCat("configmap ", configmap, ": _metadata shards is not a list of names"));
  }
  if (shards.is_number_integer()) {  // the older form: `<base>-1` .. `<base>-N`
    const int64_t n = shards.get<int64_t>();
    if (n < 0 || n > 1000) return MakeError(ErrorKind::kInput, StrCat("configmap ", configmap, ": bad shard count"));
    for (int64_t i = 1; i <= n; ++i) m.shards.push_back(StrCat(configmap, "-", i));
  } else if (shards.is_array()) {
    for (const auto& name : shards) {
      if (!name.is_string() || !util::StartsWith(name.get<std::string>(), configmap + ".")) {
        return MakeError(ErrorKind::kInput, StrCat("configmap ", configmap, ": _metadata names a foreign shard"));
      }
      m.shards.push_back(name.get<std::string>());
    }
  }
  return util::Ok();
}

}  // namespace

std::string EncodeMetadata(const Metadata& m) {
  // Key order matches the Go struct (gitCommitHash, lastSyncedAt) so both tools write the same bytes.
  std::string out = StrCat("{\"gitCommitHash\":", json(m.git_commit_hash).dump(), ",\"lastSyncedAt\":",
                           json(m.last_synced_at).dump());
  if (!m.origin.empty()) out += ",\"origin\":" + OriginJson(m.origin);
  if (!m.shards.empty()) out += StrCat(",\"shards\":", json(m.shards).dump());
  if (!m.taken_from.empty()) {
    out += ",\"takenFrom\":[";
    for (size_t i = 0; i < m.taken_from.size(); ++i) out += (i == 0 ? "" : ",") + OriginJson(m.taken_from[i]);
    out += "]";
  }
  if (!m.context_namespace.empty()) out += ",\"contextNamespace\":" + json(m.context_namespace).dump();
  return out + RenderRecordJson(m) + "}";
}

std::string EntriesDigest(const std::map<std::string, std::string>& entries, const Metadata& record) {
  std::string text;
  for (const auto& [key, value] : entries) text += StrCat(key, "\t", value, "\n");
  for (const auto& [group_kind, namespaced] : record.crd_scopes) {
    text += StrCat("crd\t", group_kind, namespaced ? "\tNamespaced\n" : "\tCluster\n");
  }
  for (const auto& [group_kind, scope] : record.kind_scopes) text += StrCat("kind\t", group_kind, "\t", scope, "\n");
  return util::Sha256Hex(text);
}

util::Status ParseMetadata(const std::string& configmap, const std::string& text, Metadata& m) {
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return MakeError(ErrorKind::kInput, StrCat("configmap ", configmap, ": _metadata is not a JSON object"));
  }
  ParseRenderRecord(doc, m);
  if (auto st = ParseStrings(configmap, doc, m); !st) return st;
  if (auto st = ParseOrigins(configmap, doc, m); !st) return st;
  return ParseShards(configmap, doc, m);
}

}  // namespace tazuna::state
