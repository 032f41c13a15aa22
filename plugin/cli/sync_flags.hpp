#pragma once

#include <chrono>
#include <string>

#include "cli/context.hpp"
#include "kube/client.hpp"
#include "state/apply/sync_engine.hpp"
#include "state/store/lease.hpp"
#include "util/result.hpp"

namespace tazuna::cli {

// The flags every command that writes under the sync lock parses alike (state sync, state delete).

/// --lock-timeout: seconds ("90s" or "90"), at most a day; kUsage naming the flag otherwise.
util::Result<std::chrono::milliseconds> ParseLockTimeout(const std::string& text);
/// --timeout of the waits: a duration of at least a second (Go duration or seconds); kUsage otherwise.
util::Result<std::chrono::seconds> ParseWaitTimeout(const std::string& text);
/// --lock-timeout and --timeout together, into `lock_wait` and `wait_timeout`; the first flag's error.
util::Status ParseTimeouts(const std::string& lock_timeout, const std::string& timeout, std::chrono::milliseconds& lock_wait,
                           std::chrono::seconds& wait_timeout);
/// --dry-run: "none" or "server" (kUsage otherwise, hinting at server for client/true).
util::Status ValidateDryRun(const std::string& dry_run);
/// The dry run a validated --dry-run asks of every write.
kube::DryRun DryRunStrategy(const std::string& dry_run);

/// The sync lock a run that writes holds, and who holds it (recorded in its revision).
struct HeldLock {
  std::unique_ptr<state::SyncLock> lock;  ///< null for a dry run
  std::string holder;
};

/// For a run that writes (so.dry_run none): takes the sync lock, waiting up to `wait` for another run's, and
/// sets so.fence to check it is still held before every write. A dry run takes none.
util::Result<HeldLock> TakeSyncLock(Context& ctx, kube::Client& client, util::Logger& log, std::chrono::milliseconds wait,
                                    state::SyncOptions& so);

}  // namespace tazuna::cli
