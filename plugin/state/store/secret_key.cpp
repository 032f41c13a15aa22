#include "state/store/secret_key.hpp"

#include "kube/settled_write.hpp"
#include "state/store/content_hash.hpp"
#include "state/store/store.hpp"
#include "util/base64.hpp"
#include "util/json_get.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;

bool IsSecret(const StateKey& k) { return k.group.empty() && k.version == "v1" && k.kind == "Secret"; }

namespace {

util::Result<SecretHashKey> FromSecret(const json& secret) {
  const std::string encoded = util::JsonString(util::JsonObject(secret, "data"), "key");
  auto key = util::Base64Decode(encoded);
  SecretHashKey out;
  if (!key || key->size() != kStateKeyBytes) {
    out.status = SecretHashKey::Status::kUnreadable;
    out.problem = util::StrCat("Secret ", kStateNamespace, "/", kStateKeySecret, " has no ", kStateKeyBytes,
                               "-byte data.key");
    return out;
  }
  out.status = SecretHashKey::Status::kKeyed;
  out.key = std::move(*key);
  return out;
}

}  // namespace

util::Result<SecretHashKey> LoadSecretHashKey(kube::Client& client, CreateKey create) {
  const kube::ObjectRef ref{"v1", "Secret", kStateNamespace, kStateKeySecret};
  auto secret = client.Get(ref);
  if (!secret && kube::IsReason(secret.error(), "NotFound") && create == CreateKey::kYes) {
    const json fresh = {{"apiVersion", "v1"},
                        {"kind", "Secret"},
                        {"metadata", {{"name", kStateKeySecret}, {"namespace", kStateNamespace}}},
                        {"type", "Opaque"},
                        {"data", {{"key", util::Base64Encode(util::RandomBytes(kStateKeyBytes))}}}};
    // Whoever's key is there first wins (another sync's, or ours whose answer was lost).
    secret = kube::WriteSettled(client, fresh, [](const json&) { return true; });
  }
  if (secret) {
    auto key = FromSecret(*secret);
    if (key && key->status != SecretHashKey::Status::kKeyed && create == CreateKey::kYes) {
      return util::MakeError(util::ErrorKind::kInput, key->problem);
    }
    return key;
  }
  if (kube::IsReason(secret.error(), "NotFound")) return SecretHashKey{};
  if (create == CreateKey::kYes) {
    return secret.error().WithContext(
        util::StrCat("sync needs Secret ", kStateNamespace, "/", kStateKeySecret, " to record Secrets"));
  }
  SecretHashKey out;
  out.status = SecretHashKey::Status::kUnreadable;
  out.problem = util::StrCat("cannot read Secret ", kStateNamespace, "/", kStateKeySecret, " (",
                             secret.error().reason.empty() ? secret.error().message : secret.error().reason, ")");
  return out;
}

std::string ShownHash(const StateKey& key, const std::string& stored) { return IsSecret(key) ? "" : stored; }

std::string ShownHash(const std::string& key, const std::string& stored) {
  auto parsed = ParseStateKey(key);
  return parsed ? ShownHash(*parsed, stored) : stored;
}

bool AnySecret(const std::vector<DesiredManifest>& manifests) {
  for (const auto& m : manifests) {
    for (const auto& d : m.objects) {
      if (IsSecret(d.key)) return true;
    }
  }
  return false;
}

void KeySecretHashes(std::vector<DesiredManifest>& manifests, const SecretHashKey& key) {
  for (auto& m : manifests) {
    for (auto& d : m.objects) {
      if (!IsSecret(d.key)) continue;
      switch (key.status) {
        case SecretHashKey::Status::kKeyed:
          d.hash = util::HmacSha256Hex(key.key, ContentHashInput(d.object));
          break;
        case SecretHashKey::Status::kAbsent:
          d.hash.clear();
          d.hash_state = HashState::kNoKey;
          break;
        case SecretHashKey::Status::kUnreadable:
          d.hash.clear();
          d.hash_state = HashState::kUnreadable;
          break;
      }
    }
  }
}

}  // namespace tazuna::state
