#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "kube/client.hpp"
#include "util/clock.hpp"
#include "util/logger.hpp"

namespace tazuna::state {

inline constexpr char kLeaseName[] = "tazuna-sync";

/// Where a process runs, to tell whether a lock holder on the same machine is gone. Two CI jobs on one
/// node share the kernel's boot id but not their PID namespaces (nor, mostly, host names): a pid seen
/// from another namespace says nothing. Any field empty: the shortcut is off.
struct ProcessPlace {
  std::string boot_id;        ///< /proc/sys/kernel/random/boot_id
  std::string host;           ///< gethostname
  std::string pid_namespace;  ///< readlink /proc/self/ns/pid, e.g. "pid:[4026531836]"
  int pid = 0;                ///< as this PID namespace numbers it
};

/// Options for taking the sync lock.
struct LockOptions {
  std::string holder;  ///< identity written to the Lease
  ProcessPlace place;  ///< this process: lets a holder that ran here and is gone be taken over at once
  std::chrono::seconds lease_duration{15};                   ///< how long a silent holder keeps it
  std::chrono::milliseconds wait{std::chrono::seconds(60)};  ///< --lock-timeout
  std::chrono::milliseconds poll{std::chrono::milliseconds(500)};
};

/// The sync lock: a coordination.k8s.io/v1 Lease `tazuna-sync` in namespace `tazuna`, taken with a
/// resourceVersion-conditional write, renewed in the background for the holder's run, released on
/// destruction. Expiry is judged as client-go's leader election judges it: by how long this process has
/// seen the lease unchanged (leaseDurationSeconds), never by comparing another machine's renewTime with
/// our clock, so clock skew cannot give two holders. A holder that ran in this very place (HolderGoneHere)
/// and whose process is gone is taken over once its last writes' bound (below) has passed, by this machine's
/// clock and the lease's renewTime. It never needs manual clearing.
///
/// Fencing: while a SyncLock exists, every write of the client (each attempt, retries and waits after
/// 429 included; the lock's own requests excepted) first calls Check(). The lock counts as held for 2/3
/// of the lease duration (client-go's renew deadline) from the START of the last renewal that succeeded,
/// and each renewal request is cut at that deadline. Past it, Check() waits for a renewal: one that
/// succeeds is conditional on the lease's resourceVersion, so it proves nobody took the lock in between,
/// and writing resumes (an apiserver restart); another holder, or none for 4 lease durations, loses it.
/// While a renewal is on the wire, Check() holds new writes back (the renewal's own lane: under a 429 storm
/// it is never queued behind the sync's applies). Every fenced write is bound by the lease: its ?timeout= and client deadline end 5/6 of the lease duration
/// after the start of the last renewal, so the server gives up on a write it holds (a slow webhook) before
/// another process, which waits a whole lease duration unchanged, could take the lock.
class SyncLock {
 public:
  /// Waits up to options.wait for the lease. kConflict naming the holder when it stays held.
  static util::Result<std::unique_ptr<SyncLock>> Acquire(kube::Client& client, util::Clock& clock,
                                                         util::Logger& log, const LockOptions& options);
  ~SyncLock();
  SyncLock(const SyncLock&) = delete;
  SyncLock& operator=(const SyncLock&) = delete;
  /// Ok while this process holds the lock (may wait for a renewal, see above); else kConflict naming the
  /// holder now, or saying it could not be renewed (sticky).
  util::Status Check();

 private:
  SyncLock(kube::Client& client, util::Clock& clock, util::Logger& log, LockOptions options, nlohmann::json lease,
           std::chrono::steady_clock::time_point taken_at);
  void RenewLoop();
  /// One renewal; `lock` holds mu_ on entry and exit (not during the request).
  void RenewOnce(std::unique_lock<std::mutex>& lock);
  bool HeldLocked(std::chrono::steady_clock::time_point now) const;  ///< mu_ held

  kube::Client& client_;
  util::Clock& clock_;
  util::Logger& log_;
  LockOptions options_;
  std::mutex mu_;
  nlohmann::json lease_;                                    // guarded by mu_
  std::chrono::steady_clock::time_point renewed_started_;   // guarded by mu_: start of the last good renewal
  std::string renew_error_;                                 // guarded by mu_: why the last renewal failed
  std::string lost_;                                        // guarded by mu_: non-empty (the error) once lost
  bool waiting_announced_ = false;                          // guarded by mu_: Check warned it waits
  bool renewing_ = false;                                   // guarded by mu_: a renewal is on the wire
  std::condition_variable changed_cv_;                      // a renewal ended, or stop_
  bool stop_ = false;                                       // guarded by mu_
  std::thread renewer_;
};

/// A holder identity for this process: <host>-<pid>-<random>.
std::string DefaultHolderIdentity();
/// This process's ProcessPlace (fields it cannot read stay empty).
ProcessPlace CurrentPlace();
/// LockOptions for this process: DefaultHolderIdentity and CurrentPlace.
LockOptions DefaultLockOptions();

/// True when the lease's holder is known to be gone: the lease records (annotation
/// tazuna.pepabo.com/holder-process, trusted only with the holder it names) the same boot id, host name
/// and PID namespace as `here`, and `exists(pid)` says its process does not exist. A record of an older
/// tazuna without host and namespace never counts.
bool HolderGoneHere(const nlohmann::json& lease, const ProcessPlace& here, const std::function<bool(int pid)>& exists);

}  // namespace tazuna::state
