#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "state/store/identity.hpp"
#include "state/store/state_key.hpp"
#include "util/result.hpp"

namespace tazuna::state {

/// What happened to one object in a sync (kubectl's verbs).
enum class Verb { kCreated, kConfigured, kAdopted, kUnchanged, kDeleted, kKept, kConflict, kSkipped, kFailed };
const char* VerbName(Verb verb);
/// A row that did not get applied as asked (failed, or a conflict): later layers and prune wait for none.
inline bool IsFailure(Verb verb) { return verb == Verb::kFailed || verb == Verb::kConflict; }

/// What a sync repairs besides hash differences (--repair), and what a row repaired.
enum class Repair : uint8_t {
  kNone,     ///< nothing: rows come from content hashes alone (and for a row: it repaired nothing)
  kMissing,  ///< objects the state records as applied whose live object is gone are applied again
  kFields,   ///< a row: applied again to take back fields other writers took (never an option)
  kAll,      ///< the option: kMissing, and objects whose applied fields others took are applied again
};
/// "none", "missing", "fields", "all".
const char* RepairName(Repair repair);

/// Where an object applied with --take-ownership came from (another repository's manifest).
struct TakenFrom {
  std::string manifest;
  ObjectIdentity identity;
  std::string origin;  ///< the object's origin mark before it was taken (empty: none)
};

/// One object's outcome. A sync of thousands of objects holds a row per object (twice, while applying),
/// so the rare parts (an error, a take-over) are kept out of line and the parsed key is parsed on demand.
struct SyncResult {
  std::string manifest;
  std::string key;
  std::string hash;
  std::string namespace_name;  ///< where the object is (the key's namespace, else the context's); empty: cluster-scoped
  std::string note;  ///< why, for kept, skipped and some deletes ("not managed by tazuna")
  Verb verb = Verb::kUnchanged;
  bool forgettable = false;  ///< kept while its state entry stays: `state forget` is the way out
  bool refused = false;      ///< a prune refused for a reason that fails the run (empty render, ...)
  Repair repair = Repair::kNone;  ///< kMissing: created again because its live object was gone ("was missing")
  std::unique_ptr<util::Error> error;  ///< for kFailed
  std::unique_ptr<TakenFrom> taken;    ///< set for objects applied with --take-ownership from another manifest

  /// `key` parsed; empty for a stored key that does not parse.
  StateKey Parsed() const;
  /// The error of a failed row (an empty error when none was recorded).
  const util::Error& Error() const;
  void Fail(util::Error e) {
    verb = Verb::kFailed;
    error = std::make_unique<util::Error>(std::move(e));
  }
};

/// A row for `key` of `manifest`, an object in `namespace_name`, with `verb` and `hash`; everything else empty.
inline SyncResult MakeResult(std::string manifest, std::string key, std::string namespace_name, Verb verb,
                             std::string hash) {
  SyncResult r;
  r.manifest = std::move(manifest);
  r.key = std::move(key);
  r.namespace_name = std::move(namespace_name);
  r.verb = verb;
  r.hash = std::move(hash);
  return r;
}

struct SyncReport {
  std::vector<SyncResult> results;  ///< applies in apply order, unchanged, then prunes
  int failed = 0;
  int refused = 0;  ///< removed objects a prune refused to delete for a reason that fails the run
  int state_writes = 0;
  uint64_t throttled = 0;   ///< 429 answers the client met (retried after Retry-After)
  int concurrency = 0;      ///< requests in flight at most (SyncOptions::concurrency)
  int concurrency_low = 0;  ///< the lowest the adaptive limit went
  std::string revision;     ///< the id of the revision record this run wrote ("" when it wrote none)
};

}  // namespace tazuna::state
