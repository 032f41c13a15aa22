#include "cli/sync_flags.hpp"

#include <charconv>
#include <string_view>

namespace tazuna::cli {

namespace {

constexpr long long kMaxLockTimeoutSeconds = 86400;  // a day; also keeps the milliseconds in range

}  // namespace

util::Result<std::chrono::milliseconds> ParseLockTimeout(const std::string& t) {
  const bool seconds = !t.empty() && t.back() == 's' && t.find_first_not_of("0123456789") == t.size() - 1;
  const bool bare = !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
  if (!seconds && !bare) {
    return util::MakeError(util::ErrorKind::kUsage, "invalid --lock-timeout \"" + t + "\": use seconds, e.g. 90s");
  }
  const std::string_view digits = std::string_view(t).substr(0, seconds ? t.size() - 1 : t.size());
  long long n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size() || n > kMaxLockTimeoutSeconds) {
    return util::MakeError(util::ErrorKind::kUsage, "invalid --lock-timeout \"" + t + "\": at most 86400s");
  }
  return std::chrono::milliseconds(std::chrono::seconds(n));
}

util::Result<std::chrono::seconds> ParseWaitTimeout(const std::string& text) {
  auto parsed = kube::ParseTimeout(text);
  if (!parsed || *parsed < std::chrono::seconds(1)) {
    return util::MakeError(util::ErrorKind::kUsage,
                           "invalid --timeout \"" + text + "\": use a duration of at least a second, e.g. 5m or 90s");
  }
  return std::chrono::duration_cast<std::chrono::seconds>(*parsed);
}

util::Status ParseTimeouts(const std::string& lock_timeout, const std::string& timeout, std::chrono::milliseconds& lock_wait,
                           std::chrono::seconds& wait_timeout) {
  auto lock = ParseLockTimeout(lock_timeout);
  if (!lock) return lock.error();
  lock_wait = *lock;
  auto wait_for = ParseWaitTimeout(timeout);
  if (!wait_for) return wait_for.error();
  wait_timeout = *wait_for;
  return util::Ok();
}

util::Status ValidateDryRun(const std::string& dry_run) {
  if (dry_run == "none" || dry_run == "server") return util::Ok();
  auto e = util::MakeError(util::ErrorKind::kUsage,
                           "Invalid dry-run value (" + dry_run + "). Must be \"none\" or \"server\".");
  if (dry_run == "client" || dry_run == "true") e.hint = "Did you mean --dry-run=server?";
  return e;
}

kube::DryRun DryRunStrategy(const std::string& dry_run) {
  return dry_run == "server" ? kube::DryRun::kAll : kube::DryRun::kNone;
}

util::Result<HeldLock> TakeSyncLock(Context& ctx, kube::Client& client, util::Logger& log, std::chrono::milliseconds wait,
                                    state::SyncOptions& so) {
  HeldLock held;
  if (so.dry_run != kube::DryRun::kNone) return held;
  state::LockOptions lo = state::DefaultLockOptions();
  lo.wait = wait;
  // TAZUNA_LOCK_LEASE_DURATION: a longer lease gives each write more time (its bound is 5/6 of it), a
  // shorter one lets the sync after a crashed one start sooner. Whole seconds, 3 to 600.
  if (auto text = ctx.env.Get("TAZUNA_LOCK_LEASE_DURATION"); text && !text->empty()) {
    auto seconds = ParseLockTimeout(*text);
    if (!seconds || *seconds < std::chrono::seconds(3) || *seconds > std::chrono::seconds(600)) {
      return util::MakeError(util::ErrorKind::kUsage, "invalid TAZUNA_LOCK_LEASE_DURATION \"" + *text +
                                                          "\": use whole seconds from 3s to 600s, e.g. 30s");
    }
    lo.lease_duration = std::chrono::duration_cast<std::chrono::seconds>(*seconds);
  }
  held.holder = lo.holder;
  auto taken = state::SyncLock::Acquire(client, ctx.clock, log, lo);
  if (!taken) return taken.error();
  held.lock = std::move(*taken);
  so.fence = [l = held.lock.get()] { return l->Check(); };  // every write first checks the lock is still ours
  return held;
}

}  // namespace tazuna::cli
