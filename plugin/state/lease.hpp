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
  std::chrono::seconds lease_duration{15};             ///< how long a silent holder keeps it
  std::chrono::milliseconds wait{std::chrono::seconds(60)};  ///< --lock-timeout
  std::chrono::milliseconds poll{std::chrono::milliseconds(500)};
};

/// The sync lock: a coordination.k8s.io/v1 Lease `tazuna-sync` in namespace `tazuna`, taken
/// with a resourceVersion-conditional write, renewed in the background for the holder's run,
/// released on destruction. A crashed holder's lease expires after lease_duration and is
/// taken over; it never needs manual clearing.
class SyncLock {
 public:
  /// Waits up to options.wait for the lease. kConflict naming the holder when it stays held.
  static util::Result<std::unique_ptr<SyncLock>> Acquire(kube::Client& client, util::Clock& clock,
                                                         util::Logger& log, const LockOptions& options);
  ~SyncLock();
  SyncLock(const SyncLock&) = delete;
  SyncLock& operator=(const SyncLock&) = delete;

 private:
  SyncLock(kube::Client& client, util::Clock& clock, util::Logger& log, LockOptions options,
           nlohmann::json lease);
  void RenewLoop();

  kube::Client& client_;
  util::Clock& clock_;
  util::Logger& log_;
  LockOptions options_;
  nlohmann::json lease_;  // guarded by mu_
  std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread renewer_;
};

/// A holder identity for this process: <host>-<pid>-<random>.
std::string DefaultHolderIdentity();

}  // namespace tazuna::state
