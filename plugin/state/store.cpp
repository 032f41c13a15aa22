#include "state/store.hpp"

#include <algorithm>
#include <set>

#include "state/state_key.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::ErrorKind;
using util::MakeError;
using util::StrCat;

std::string ConfigMapName(const std::string& manifest, int shard) {
  return shard == 0 ? kConfigMapPrefix + manifest : StrCat(kConfigMapPrefix, manifest, "-", shard);
}

std::string EncodeMetadata(const Metadata& m) {
  // Key order matches the Go struct (gitCommitHash, lastSyncedAt) so both tools write the same bytes.
  std::string out = StrCat("{\"gitCommitHash\":", json(m.git_commit_hash).dump(), ",\"lastSyncedAt\":",
                           json(m.last_synced_at).dump());
  if (m.shards > 0) out += StrCat(",\"shards\":", m.shards);
  return out + "}";
}

std::vector<std::map<std::string, std::string>> BuildShards(const std::map<std::string, std::string>& entries,
                                                            Metadata metadata) {
  std::vector<std::map<std::string, std::string>> shards(1);
  size_t size = 0;
  for (const auto& [key, hash] : entries) {
    const std::string data_key = DataKeyFor(key);
    std::string value = EncodeEntry(hash, IsHashedDataKey(data_key) ? key : "");
    const size_t bytes = data_key.size() + value.size() + 8;
    if (size + bytes > kShardBytes) {
      shards.emplace_back();
      size = 0;
    }
    size += bytes;
    shards.back().emplace(data_key, std::move(value));
  }
  metadata.shards = static_cast<int>(shards.size()) - 1;
  shards[0]["_metadata"] = EncodeMetadata(metadata);
  return shards;
}

namespace {

util::Status ParseMetadata(const std::string& configmap, const std::string& text, Metadata& m) {
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return MakeError(ErrorKind::kInput, StrCat("configmap ", configmap, ": _metadata is not a JSON object"));
  }
  m.git_commit_hash = doc.value("gitCommitHash", "");
  m.last_synced_at = doc.value("lastSyncedAt", "");
  m.shards = doc.contains("shards") && doc["shards"].is_number_integer() ? doc["shards"].get<int>() : 0;
  return util::Ok();
}

}  // namespace

util::Status ParseData(const std::string& configmap, const json& data, ManifestState& state) {
  if (!data.is_object()) return util::Ok();
  for (const auto& [data_key, value] : data.items()) {
    if (!value.is_string()) continue;
    const std::string text = value.get<std::string>();
    if (data_key == "_metadata") {
      if (auto st = ParseMetadata(configmap, text, state.metadata); !st) return st;
      continue;
    }
    auto entry = DecodeEntry(text);
    if (!entry) return entry.error().WithContext(StrCat("configmap ", configmap, " key ", data_key));
    const std::string key = IsHashedDataKey(data_key) ? entry->key : DecodeDataKey(data_key);
    if (auto parsed = ParseStateKey(key); !parsed) {
      return parsed.error().WithContext(StrCat("configmap ", configmap, " key ", data_key));
    }
    state.entries[key] = entry->content_hash;
  }
  return util::Ok();
}

util::Result<ManifestState> StateStore::Read(const std::string& manifest) {
  ManifestState state;
  state.manifest = manifest;
  for (int shard = 0; shard == 0 || shard <= state.metadata.shards; ++shard) {
    const std::string name = ConfigMapName(manifest, shard);
    auto cm = client_.Get({"v1", "ConfigMap", kStateNamespace, name});
    if (!cm) {
      if (!kube::IsReason(cm.error(), "NotFound")) return cm.error();
      state.objects.push_back({name, ""});
      continue;
    }
    state.objects.push_back({name, (*cm)["metadata"].value("resourceVersion", "")});
    const json data = cm->contains("data") ? (*cm)["data"] : json::object();
    if (auto st = ParseData(name, data, state); !st) return st.error();
  }
  return state;
}

util::Result<std::vector<std::string>> StateStore::ListManifests() {
  auto items = client_.List("v1", "ConfigMap", kStateNamespace);
  if (!items) return items.error();
  std::map<std::string, int> shards_of;  // base manifest -> spill count
  for (const auto& cm : *items) {
    const std::string name = cm["metadata"].value("name", "");
    if (!util::StartsWith(name, kConfigMapPrefix)) continue;
    Metadata m;
    if (cm.contains("data") && cm["data"].contains("_metadata") && cm["data"]["_metadata"].is_string()) {
      (void)ParseMetadata(name, cm["data"]["_metadata"].get<std::string>(), m);  // a bad one is reported by Read
    }
    shards_of[name.substr(sizeof(kConfigMapPrefix) - 1)] = m.shards;
  }
  std::vector<std::string> out;
  for (const auto& [manifest, count] : shards_of) {
    bool is_shard = false;
    const size_t dash = manifest.rfind('-');
    if (dash != std::string::npos && dash + 1 < manifest.size() &&
        std::all_of(manifest.begin() + static_cast<long>(dash) + 1, manifest.end(), ::isdigit)) {
      const auto base = shards_of.find(manifest.substr(0, dash));
      is_shard = base != shards_of.end() && base->second >= std::stoi(manifest.substr(dash + 1));
    }
    if (!is_shard) out.push_back(manifest);
  }
  return out;
}

util::Status StateStore::EnsureNamespace() {
  if (namespace_ready_) return util::Ok();
  auto ns = client_.Get({"v1", "Namespace", "", kStateNamespace});
  if (!ns) {
    if (!kube::IsReason(ns.error(), "NotFound")) return ns.error();
    const json object = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", kStateNamespace}}}};
    auto created = client_.Create(object);
    if (!created && !kube::IsReason(created.error(), "AlreadyExists")) return created.error();
  }
  namespace_ready_ = true;
  return util::Ok();
}

util::Status StateStore::WriteOne(ShardObject& object, const std::map<std::string, std::string>& data) {
  json cm = {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
             {"metadata", {{"name", object.name}, {"namespace", kStateNamespace}}}, {"data", data}};
  util::Result<json> written = json();
  if (object.resource_version.empty()) {
    written = client_.Create(cm);
    if (!written && kube::IsReason(written.error(), "AlreadyExists")) {
      return MakeError(ErrorKind::kConflict, StrCat("configmap ", object.name, " was created by another writer"));
    }
  } else {
    cm["metadata"]["resourceVersion"] = object.resource_version;
    written = client_.Update(cm);
    if (!written && kube::IsReason(written.error(), "Conflict")) {
      return MakeError(ErrorKind::kConflict, StrCat("configmap ", object.name, " was changed by another writer"));
    }
  }
  if (!written) return written.error();
  object.resource_version = (*written)["metadata"].value("resourceVersion", "");
  return util::Ok();
}

util::Status StateStore::Write(ManifestState& state) {
  if (auto st = EnsureNamespace(); !st) return st;
  const auto shards = BuildShards(state.entries, state.metadata);
  while (state.objects.size() < shards.size()) {
    state.objects.push_back({ConfigMapName(state.manifest, static_cast<int>(state.objects.size())), ""});
  }
  // Spill shards first and the base last: the base's `_metadata.shards` only ever names shards
  // that are already written, so a reader never misses entries after a crash between writes.
  for (size_t i = shards.size(); i-- > 0;) {
    if (auto st = WriteOne(state.objects[i], shards[i]); !st) return st;
  }
  state.metadata.shards = static_cast<int>(shards.size()) - 1;
  for (size_t i = shards.size(); i < state.objects.size(); ++i) {
    if (state.objects[i].resource_version.empty()) continue;
    auto st = client_.Delete({"v1", "ConfigMap", kStateNamespace, state.objects[i].name});
    if (!st && !kube::IsReason(st.error(), "NotFound")) return st;
  }
  state.objects.resize(shards.size());
  return util::Ok();
}

util::Status StateStore::Delete(const ManifestState& state) {
  for (const auto& object : state.objects) {
    if (object.resource_version.empty()) continue;
    auto st = client_.Delete({"v1", "ConfigMap", kStateNamespace, object.name}, kube::Propagation::kDefault,
                             kube::DryRun::kNone, {"", object.resource_version});
    if (!st && kube::IsReason(st.error(), "Conflict")) {
      return MakeError(ErrorKind::kConflict, StrCat("configmap ", object.name, " was changed by another writer"));
    }
    if (!st && !kube::IsReason(st.error(), "NotFound")) return st;
  }
  return util::Ok();
}

}  // namespace tazuna::state
