#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "kube/client.hpp"
#include "util/clock.hpp"
#include "util/logger.hpp"

namespace tazuna::state {

inline constexpr char kLeaseName[] = "tazuna-sync";

/// Options for taking the sync lock.
struct LockOptions {
  std::string holder;                                  ///< identity written to the Lease
  std::string boot_id;   ///< this machine's boot id; with `pid`, lets a holder on this machine be seen dead
  int pid = 0;
  std::chrono::seconds lease_duration{15};             ///< how long a silent holder keeps it
  std::chrono::milliseconds wait{std::chrono::seconds(60)};  ///< --lock-timeout
  std::chrono::milliseconds poll{std::chrono::milliseconds(500)};
};

/// The sync lock: a coordination.k8s.io/v1 Lease `tazuna-sync` in namespace `tazuna`, taken
/// with a resourceVersion-conditional write, renewed in the background for the holder's run,
/// released on destruction. Expiry is judged as client-go's leader election judges it: by how long
/// this process has seen the lease unchanged (leaseDurationSeconds), never by comparing another
/// machine's renewTime with our clock, so clock skew cannot give two holders. A holder on this
/// machine (same boot id) whose process is gone is taken over at once. It never needs manual clearing.
/// Fencing: Check() before every write; the lock counts as lost once another holder took it or no
/// renewal succeeded for 2/3 of the lease duration (client-go's renew deadline).
class SyncLock {
 public:
  /// Waits up to options.wait for the lease. kConflict naming the holder when it stays held.
  static util::Result<std::unique_ptr<SyncLock>> Acquire(kube::Client& client, util::Clock& clock,
                                                         util::Logger& log, const LockOptions& options);
  ~SyncLock();
  SyncLock(const SyncLock&) = delete;
  /// Ok while this process still holds the lock; else kConflict naming the holder now (sticky).
  util::Status Check();
  SyncLock& operator=(const SyncLock&) = delete;

 private:
  SyncLock(kube::Client& client, util::Clock& clock, util::Logger& log, LockOptions options,
           nlohmann::json lease);
  void RenewLoop();
  bool RenewOnce(std::unique_lock<std::mutex>& lock);  ///< false: lost to another holder; `lock` holds mu_
  std::string CurrentHolder();

  kube::Client& client_;
  util::Clock& clock_;
  util::Logger& log_;
  LockOptions options_;
  nlohmann::json lease_;  // guarded by mu_
  std::mutex mu_;
  std::atomic<int64_t> last_renewed_ns_{0};  ///< Steady() of the last successful write, since epoch
  std::string lost_to_;                     // guarded by mu_; non-empty once lost
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread renewer_;
};

/// A holder identity for this process: <host>-<pid>-<random>.
std::string DefaultHolderIdentity();
/// LockOptions for this process: DefaultHolderIdentity, the machine's boot id and the pid.
LockOptions DefaultLockOptions();

}  // namespace tazuna::state
