#include "state/store/store.hpp"

#include <algorithm>
#include <random>
#include <set>

#include "kube/settled_write.hpp"
#include "manifest/names.hpp"
#include "state/store/applyset.hpp"
#include "state/store/state_key.hpp"
#include "util/json_get.hpp"
#include "util/sha256.hpp"
#include "util/profile.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::ErrorKind;
using util::MakeError;
using util::StrCat;

namespace {

constexpr int kReadAttempts = 3;  // a base that names a vanished shard is read again this often

// A fresh generation id: 8 lowercase hex digits.
std::string NewGeneration() {
  std::random_device rd;
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(rd()));
  return buf;
}

// Label values are at most 63 characters: longer manifest names are hashed.
std::string ShardLabelValue(const std::string& manifest) {
  if (manifest.size() <= 63) return manifest;
  return "h" + util::Sha256Hex(manifest).substr(0, 40);
}

bool IsShardOf(const std::string& name, const std::string& manifest) {
  return util::StartsWith(name, ConfigMapName(manifest) + ".");
}

}  // namespace

std::string ConfigMapName(const std::string& manifest) { return kConfigMapPrefix + manifest; }

std::string ShardName(const std::string& manifest, const std::string& generation, int index) {
  return StrCat(kConfigMapPrefix, manifest, ".", generation, ".", index);
}

std::vector<std::map<std::string, std::string>> BuildShards(const std::string& manifest,
                                                            const std::map<std::string, std::string>& entries,
                                                            Metadata metadata, const std::string& generation) {
  std::vector<std::map<std::string, std::string>> shards(1);
  // The base also carries `_metadata`, which names the shards: leave room for it (its render record grows with
  // the kinds and CRDs of the manifest) and for the shard names.
  metadata.shards.clear();
  size_t size = EncodeMetadata(metadata).size() + 4096;
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
  metadata.shards.clear();
  for (size_t i = 1; i < shards.size(); ++i) metadata.shards.push_back(ShardName(manifest, generation, static_cast<int>(i)));
  shards[0]["_metadata"] = EncodeMetadata(metadata);
  return shards;
}

namespace {

enum class Role { kBase, kShard };

// A state ConfigMap as the server returned it must be an object with object metadata; only the base
// names shards (a `_metadata` in a spill shard would replace the base's).
util::Status CheckConfigMap(const json& cm, const std::string& name, Role role) {
  if (!cm.is_object() || !util::JsonField(cm, "metadata").is_object()) {
    return MakeError(ErrorKind::kInput, StrCat("configmap ", kStateNamespace, "/", name, " is not a ConfigMap object"));
  }
  if (role == Role::kShard && util::JsonField(util::JsonField(cm, "data"), "_metadata").is_string()) {
    return MakeError(ErrorKind::kInput,
                     StrCat("configmap ", kStateNamespace, "/", name, " is a spill shard but carries _metadata"));
  }
  return util::Ok();
}

}  // namespace

util::Status ParseData(const std::string& configmap, const json& data, ManifestState& state) {
  if (data.is_null()) return util::Ok();
  if (!data.is_object()) return MakeError(ErrorKind::kInput, StrCat("configmap ", configmap, ": data is not a map"));
  for (auto it = data.begin(); it != data.end(); ++it) {
    // Not a structured binding: clang 14 refuses to capture one in the lambda below.
    const std::string& data_key = it.key();
    const json& value = it.value();
    if (!value.is_string()) {
      return MakeError(ErrorKind::kInput,
                       StrCat("configmap ", configmap, " key ", util::Printable(data_key), ": value is not a string"));
    }
    const std::string& text = value.get_ref<const std::string&>();
    if (data_key == "_metadata") {
      if (auto st = ParseMetadata(configmap, text, state.metadata); !st) return st;
      continue;
    }
    const auto where = [&] { return StrCat("configmap ", configmap, " key ", util::Printable(data_key)); };
    auto entry = DecodeEntry(text);
    if (!entry) return entry.error().WithContext(where());
    const std::string key = IsHashedDataKey(data_key) ? entry->key : DecodeDataKey(data_key);
    auto parsed = ParseStateKey(key);
    if (!parsed) return parsed.error().WithContext(where());
    // An entry of another manifest would read as removed here, and be pruned.
    if (!state.manifest.empty() && parsed->manifest != state.manifest) {
      return MakeError(ErrorKind::kInput, StrCat(where(), ": state key ", util::Quote(key), " belongs to manifest ",
                                                 util::Quote(parsed->manifest), ", not ", util::Quote(state.manifest)));
    }
    state.entries[key] = entry->content_hash;
  }
  return util::Ok();
}

util::Result<ManifestState> StateStore::Read(const std::string& manifest) {
  const std::string base = ConfigMapName(manifest);
  std::string missing;
  for (int attempt = 0; attempt < kReadAttempts; ++attempt) {
    ManifestState state;
    state.manifest = manifest;
    auto cm = client_.Get({"v1", "ConfigMap", kStateNamespace, base});
    if (!cm) {
      if (!kube::IsReason(cm.error(), "NotFound")) return cm.error();
      state.objects.push_back({base, ""});
      return state;
    }
    if (auto st = CheckConfigMap(*cm, base, Role::kBase); !st) return st.error();
    state.objects.push_back({base, util::MetaString(*cm, "resourceVersion")});
    if (auto st = ParseData(base, util::JsonField(*cm, "data"), state); !st) return st.error();
    // Copied: the loop below must not walk a list that parsing could change.
    const std::vector<std::string> shards = state.metadata.shards;
    missing.clear();
    for (const auto& name : shards) {
      auto shard = client_.Get({"v1", "ConfigMap", kStateNamespace, name});
      if (!shard && kube::IsReason(shard.error(), "NotFound")) {
        missing = name;
        break;
      }
      if (!shard) return shard.error();
      if (auto st = CheckConfigMap(*shard, name, Role::kShard); !st) return st.error();
      state.objects.push_back({name, util::MetaString(*shard, "resourceVersion")});
      if (auto st = ParseData(name, util::JsonField(*shard, "data"), state); !st) return st.error();
    }
    if (missing.empty()) return state;
  }
  return MakeError(ErrorKind::kInput, StrCat("state of manifest ", util::Quote(manifest), " is incomplete: configmap ",
                                             kStateNamespace, "/", missing, " named by ", base, " is missing"));
}

util::Result<std::vector<std::string>> StateStore::ListManifests() {
  auto items = client_.List("v1", "ConfigMap", kStateNamespace);
  if (!items) return items.error();
  std::set<std::string> bases, shards;
  for (const auto& cm : *items) {
    const std::string name = util::MetaString(cm, "name");
    if (!util::StartsWith(name, kConfigMapPrefix)) continue;
    // A manifest name has no '.': such a name is a spill shard (named by its base or left by a kill).
    if (name.find('.', sizeof(kConfigMapPrefix) - 1) != std::string::npos) continue;
    bases.insert(name);
    ManifestState named;
    const json& metadata = util::JsonField(util::JsonField(cm, "data"), "_metadata");
    if (metadata.is_string()) {
      (void)ParseMetadata(name, metadata.get<std::string>(), named.metadata);  // a bad one is reported by Read
    }
    shards.insert(named.metadata.shards.begin(), named.metadata.shards.end());
  }
  std::vector<std::string> out;
  for (const auto& name : bases) {
    if (shards.count(name) == 0) out.push_back(name.substr(sizeof(kConfigMapPrefix) - 1));
  }
  return out;
}

util::Status StateStore::EnsureNamespace() {
  std::lock_guard<std::mutex> lock(*mu_);  // the first writer creates it, the others wait for it
  if (namespace_ready_) return util::Ok();
  auto ns = client_.Get({"v1", "Namespace", "", kStateNamespace});
  if (!ns) {
    if (!kube::IsReason(ns.error(), "NotFound")) return ns.error();
    const json object = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", kStateNamespace}}}};
    auto created = kube::WriteSettled(client_, object, [](const json&) { return true; });  // anyone's will do
    if (!created) return created.error();
  }
  namespace_ready_ = true;
  return util::Ok();
}

util::Status StateStore::WriteOne(ShardObject& object, const std::map<std::string, std::string>& data,
                                  const json& labels, const json& annotations, kube::WriteFate* fate) {
  json cm = {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
             {"metadata", {{"name", object.name}, {"namespace", kStateNamespace}}}, {"data", data}};
  if (!labels.empty()) cm["metadata"]["labels"] = labels;
  if (!annotations.empty()) cm["metadata"]["annotations"] = annotations;
  if (!object.resource_version.empty()) cm["metadata"]["resourceVersion"] = object.resource_version;
  if (util::ProfileEnabled()) util::ProfileBytes(util::ProfilePhase::kStateWrite, cm.dump().size());
  // A write whose answer is lost is settled by reading it back: the same data there means it is stored.
  // Only the new resourceVersion is read from the answer: it need not carry the state back.
  kube::RequestOptions options;
  options.metadata_answer = true;
  auto written = kube::WriteSettled(client_, cm, kube::SameData(cm), options, fate);
  if (!written) return written.error();
  object.resource_version = util::MetaString(*written, "resourceVersion");
  return util::Ok();
}

util::Status StateStore::Write(ManifestState& state) {
  util::ProfileScope profiled(util::ProfilePhase::kStateWrite);
  if (auto st = EnsureNamespace(); !st) return st;
  const std::string generation = NewGeneration();
  const auto data = BuildShards(state.manifest, state.entries, state.metadata, generation);
  std::vector<ShardObject> created;
  std::vector<std::string> names;
  util::Status st;
  for (size_t i = 1; i < data.size() && st; ++i) {
    ShardObject shard{ShardName(state.manifest, generation, static_cast<int>(i)), ""};
    names.push_back(shard.name);  // before the write: one whose answer was lost may exist
    st = WriteOne(shard, data[i], {{kShardLabel, ShardLabelValue(state.manifest)}}, json::object(), nullptr);
    if (st) created.push_back(shard);
  }
  if (state.objects.empty()) state.objects.push_back({ConfigMapName(state.manifest), ""});
  // The switch: from here on the new set is the state. The base is also the manifest's ApplySet parent.
  const ApplySetParent parent = ParentOf(state.manifest, state.entries, tooling_);
  kube::WriteFate base = kube::WriteFate::kNotWritten;  // not sent when a shard failed
  if (st) st = WriteOne(state.objects[0], data[0], parent.labels, parent.annotations, &base);
  if (!st) {
    // A base that may still be stored (its fate is unknown) names these shards: they stay. Otherwise they go,
    // once the base as read names none of them; a later write collects what is left.
    if (base == kube::WriteFate::kNotWritten) DropUnnamed(state.manifest, names);
    return st;
  }
  const std::vector<ShardObject> old(state.objects.begin() + 1, state.objects.end());
  state.objects.resize(1);
  state.objects.insert(state.objects.end(), created.begin(), created.end());
  state.metadata.shards = names;
  CollectGarbage(state.manifest, old, names);
  return util::Ok();
}

void StateStore::DropUnnamed(const std::string& manifest, const std::vector<std::string>& shards) {
  if (shards.empty()) return;
  auto cm = client_.Get({"v1", "ConfigMap", kStateNamespace, ConfigMapName(manifest)});
  if (!cm && !kube::IsReason(cm.error(), "NotFound")) return;  // cannot tell what the base names: keep them
  ManifestState named;
  if (cm) {
    const std::string metadata = util::JsonString(util::JsonObject(*cm, "data"), "_metadata");
    // An unreadable base may still name them: keep them.
    if (metadata.empty() || !ParseMetadata(ConfigMapName(manifest), metadata, named.metadata)) return;
  }
  for (const auto& name : shards) {
    if (std::find(named.metadata.shards.begin(), named.metadata.shards.end(), name) != named.metadata.shards.end()) {
      return;  // named after all: the write is stored, whatever its answer said
    }
  }
  for (const auto& name : shards) (void)client_.Delete({"v1", "ConfigMap", kStateNamespace, name});  // best effort
}

// `keep` is what the base names as our conditional write of it (accepted) sent it: under the sync lock nothing
// else writes the base, so that is the base as stored, and it names none of the garbage.
void StateStore::CollectGarbage(const std::string& manifest, const std::vector<ShardObject>& old,
                                const std::vector<std::string>& keep) {
  std::set<std::string> garbage;
  for (const auto& o : old) garbage.insert(o.name);
  std::unique_lock<std::mutex> lock(*mu_);
  if (!shard_names_) {
    // Once per store: every shard in the namespace (metadata only), to find those a killed write left.
    auto listed = client_.List("v1", "ConfigMap", kStateNamespace, kShardLabel, kube::ListDetail::kMetadata);
    shard_names_.emplace();
    for (const auto& item : listed ? *listed : std::vector<json>{}) {
      shard_names_->push_back(util::MetaString(item, "name"));
    }
  }
  if (collected_.insert(manifest).second) {
    for (const auto& name : *shard_names_) {
      if (IsShardOf(name, manifest)) garbage.insert(name);
    }
  }
  lock.unlock();
  for (const auto& name : keep) garbage.erase(name);
  for (const auto& name : garbage) {
    // The older `<base>-N` names are also another manifest's base name (manifest `web-1`): such a shard
    // goes only when it carries this manifest's shard label, and only that very object (uid).
    kube::Preconditions pre;
    if (!IsShardOf(name, manifest)) {
      auto got = client_.Get({"v1", "ConfigMap", kStateNamespace, name});
      const json meta = got && got->is_object() ? got->value("metadata", json::object()) : json::object();
      const json labels = meta.is_object() ? meta.value("labels", json::object()) : json::object();
      if (!labels.is_object() || labels.value(kShardLabel, json()) != ShardLabelValue(manifest)) continue;
      pre.uid = meta.value("uid", "");
    }
    // Best effort: a shard no base names is never read; one left now is collected by a later write.
    (void)client_.Delete({"v1", "ConfigMap", kStateNamespace, name}, kube::Propagation::kDefault, kube::DryRun::kNone, pre);
  }
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
