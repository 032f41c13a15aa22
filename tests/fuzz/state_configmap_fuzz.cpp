// State ConfigMap decoding: data keys (state::DecodeDataKey), entries (state::DecodeEntry), `_metadata`
// and shard lists (state::ParseData). Input that is a JSON object is a ConfigMap's `data`; any input is
// also tried as one data key, entry and state key. What decodes must encode back to the same state.
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "state/store/state_key.hpp"
#include "state/store/store.hpp"

namespace tazuna::fuzz {
namespace {

constexpr char kManifest[] = "m";
constexpr char kGeneration[] = "0a1b2c3d";

void CheckCodecs(std::string_view text) {
  const std::string encoded = state::EncodeDataKey(text);
  Check(state::DecodeDataKey(encoded) == text, "DecodeDataKey inverts EncodeDataKey");
  Check(encoded.find_first_not_of("-._abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
            std::string::npos,
        "an encoded data key is a valid ConfigMap key");
  const std::string data_key = state::DataKeyFor(text);
  Check(data_key.size() <= state::kMaxDataKeyLength, "a data key fits a ConfigMap key");
  Check(state::IsHashedDataKey(data_key) == (encoded.size() > state::kMaxDataKeyLength),
        "only over-long keys are hashed");
  if (auto entry = state::DecodeEntry(text); !entry) CheckOneLine(entry.error());
  // A name with '/' in a key without namespace is ambiguous in the string form (as in the Go tool).
  if (auto key = state::ParseStateKey(text); key && key->name.find('/') == std::string::npos) {
    Check(state::ParseStateKey(key->ToString()).value_or(state::StateKey{}) == *key, "a state key round-trips");
  }
}

// What BuildShards writes for `state` parses back to the same entries and metadata.
void CheckRoundTrip(const state::ManifestState& state) {
  const auto shards = state::BuildShards(kManifest, state.entries, state.metadata, kGeneration);
  state::ManifestState back;
  back.manifest = kManifest;
  for (size_t i = 0; i < shards.size(); ++i) {
    const std::string name =
        i == 0 ? state::ConfigMapName(kManifest) : state::ShardName(kManifest, kGeneration, static_cast<int>(i));
    Check(state::ParseData(name, nlohmann::json(shards[i]), back).has_value(), "written state parses back");
  }
  Check(back.entries == state.entries, "entries round-trip");
  Check(back.metadata.git_commit_hash == state.metadata.git_commit_hash &&
            back.metadata.last_synced_at == state.metadata.last_synced_at,
        "_metadata round-trips");
  Check(back.metadata.shards.size() + 1 == shards.size(), "_metadata names every shard written");
}

}  // namespace
}  // namespace tazuna::fuzz

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size) {
  using namespace tazuna;
  fuzz::CheckCodecs(fuzz::Text(data, size));
  const nlohmann::json cm_data = nlohmann::json::parse(data, data + size, nullptr, false);
  if (!cm_data.is_object()) return 0;
  state::ManifestState state;
  state.manifest = fuzz::kManifest;
  if (auto st = state::ParseData(state::ConfigMapName(fuzz::kManifest), cm_data, state); !st) {
    fuzz::CheckOneLine(st.error());
    fuzz::Check(st.error().kind == util::ErrorKind::kInput, "bad state is an input error");
    return 0;
  }
  for (const auto& shard : state.metadata.shards) {
    fuzz::Check(shard.rfind(state::ConfigMapName(fuzz::kManifest), 0) == 0, "shards are the manifest's own");
  }
  fuzz::CheckRoundTrip(state);
  return 0;
}
