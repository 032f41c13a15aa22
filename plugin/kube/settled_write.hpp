#pragma once

#include <functional>

#include <nlohmann/json.hpp>

#include "kube/client.hpp"
#include "util/result.hpp"

namespace tazuna::kube {

/// What became of a write.
enum class WriteFate {
  kWritten,     ///< stored: the result is the object as stored
  kNotWritten,  ///< not stored and never will be: refused, or another writer's object is there now
  kUnknown,     ///< nothing could tell (the read-back failed too): it may be stored, now or later
};

/// Tells whether a live object is the result of this very write (the same data, our holder identity...).
using IsMine = std::function<bool(const nlohmann::json& live)>;

/// How often WriteSettled sends one write at most (the first time and after read-backs showing it absent,
/// with backoff between them).
inline constexpr int kSettleAttempts = 5;

/// Writes `object`: POST when it has no metadata.resourceVersion, else a PUT conditional on it. Such a
/// write is never sent again blindly. When its answer leaves open whether it was applied (Unconfirmed),
/// or says Conflict or AlreadyExists (as an applied write whose answer was lost would), the object is
/// read back: `mine(live)` true means the write is stored; the object as before (absent for a create, the
/// same resourceVersion for a replace) means it is not, and it is sent again (kSettleAttempts in all:
/// the precondition keeps a late first copy from applying twice); anything else means another writer got
/// there first. Returns the object as stored (only its metadata when `options.metadata_answer` and the write
/// itself was answered). Errors: kConflict naming the object when another writer's
/// object is there, else the last error (with the read-back's when that failed). `fate`, when not null,
/// is set on every return.
util::Result<nlohmann::json> WriteSettled(Client& client, const nlohmann::json& object, const IsMine& mine,
                                          const RequestOptions& options = {}, WriteFate* fate = nullptr);

/// An IsMine for objects whose `data` is the whole of what a write means (ConfigMaps, Secrets). It refers
/// to `object` (a state's data is large: not copied), which must outlive it.
IsMine SameData(const nlohmann::json& object);
IsMine SameData(const nlohmann::json&& object) = delete;  ///< a temporary would not outlive it

}  // namespace tazuna::kube
