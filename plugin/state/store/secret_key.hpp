#pragma once

#include <string>
#include <vector>

#include "kube/client.hpp"
#include "state/store/desired.hpp"
#include "util/result.hpp"

namespace tazuna::state {

/// Secret in namespace `tazuna` holding the key Secret content hashes are made with.
inline constexpr char kStateKeySecret[] = "tazuna-state-key";
/// Bytes of that key.
inline constexpr size_t kStateKeyBytes = 32;

/// The key for Secret hashes, as far as this run could get it. The key itself is never printed.
struct SecretHashKey {
  enum class Status { kKeyed, kAbsent, kUnreadable };
  Status status = Status::kAbsent;
  std::string key;      ///< kStateKeyBytes bytes when kKeyed
  std::string problem;  ///< why kUnreadable, one line
};

enum class CreateKey { kYes, kNo };

/// Reads Secret tazuna/tazuna-state-key. Absent: kAbsent, or with CreateKey::kYes a new random key is
/// created (a concurrent creator's key wins). Unreadable (Forbidden, malformed): kUnreadable with the
/// reason; with CreateKey::kYes that is an error instead, since a sync cannot record Secrets without it.
util::Result<SecretHashKey> LoadSecretHashKey(kube::Client& client, CreateKey create);

/// A hash read from a state, as it may be shown or copied (outputs, plans, revisions): "" for a v1
/// Secret, whose stored hash may be the Go tool's plain SHA-256 of its content (brute-forceable from a
/// plan file or a revision long after the state itself was keyed); `stored` for every other kind.
std::string ShownHash(const StateKey& key, const std::string& stored);
/// ShownHash of a state key string (an unparsable key's hash is shown).
std::string ShownHash(const std::string& key, const std::string& stored);

/// True when any rendered object is a v1 Secret.
bool AnySecret(const std::vector<DesiredManifest>& manifests);
/// Whether `key` names a core v1 Secret.
bool IsSecret(const StateKey& key);

/// Re-hashes the v1 Secrets of `manifests`: HMAC-SHA-256 of the ContentHash bytes under the key, so a
/// reader of the state ConfigMap cannot brute-force Secret values from their hashes (other kinds keep
/// the Go tool's plain SHA-256). Without a key the Secrets' hash_state says why, and Diff never calls
/// them unchanged.
void KeySecretHashes(std::vector<DesiredManifest>& manifests, const SecretHashKey& key);

}  // namespace tazuna::state
