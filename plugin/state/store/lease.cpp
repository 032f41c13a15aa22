#include "state/store/lease.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <random>

#include "kube/settled_write.hpp"
#include "state/store/store.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

// "<holderIdentity> <boot id> <pid> <host> <pid namespace>": trusted only while the holder it names still
// holds the lease. Older tazuna wrote the first three fields only.
constexpr char kProcessAnnotation[] = "tazuna.pepabo.com/holder-process";
constexpr char kLastHolderAnnotation[] = "tazuna.pepabo.com/last-holder";  // set on release
constexpr std::chrono::milliseconds kRenewRetry{1000};  // after a renewal that failed
constexpr int kGiveUpLeases = 4;                        // lease durations without a renewal before giving up
constexpr std::chrono::seconds kReleaseTimeout{5};      // a release is best effort: never hold up the exit
constexpr std::chrono::seconds kGoneSlack{1};           // beyond a gone holder's write bound, for clock reads

// Until when, from the start of a renewal, a write of the holder may still be inside the server: its
// ?timeout= ends by then (kube::Client::set_write_fence). Past the 2/3 renew deadline (no write starts
// later) and well before another process could take the lease over (a whole lease duration unchanged).
std::chrono::milliseconds WriteBound(std::chrono::milliseconds lease_duration) { return lease_duration * 5 / 6; }

const kube::ObjectRef kLeaseRef{"coordination.k8s.io/v1", "Lease", kStateNamespace, kLeaseName};

std::string ReadFirstLine(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return std::string(util::Trim(line));
}

std::string ReadPidNamespace() {
  char buf[128];
  const ssize_t n = ::readlink("/proc/self/ns/pid", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

bool Complete(const ProcessPlace& p) {
  return !p.boot_id.empty() && !p.host.empty() && !p.pid_namespace.empty() && p.pid > 0;
}

json LeaseObject(const LockOptions& o, util::Clock& clock) {
  const std::string now = util::FormatRfc3339Micro(clock.Now());
  json lease = {{"apiVersion", "coordination.k8s.io/v1"},
                {"kind", "Lease"},
                {"metadata", {{"name", kLeaseName}, {"namespace", kStateNamespace}}},
                {"spec",
                 {{"holderIdentity", o.holder},
                  {"leaseDurationSeconds", o.lease_duration.count()},
                  {"acquireTime", now},
                  {"renewTime", now}}}};
  if (Complete(o.place)) {
    const ProcessPlace& p = o.place;
    lease["metadata"]["annotations"] = {
        {kProcessAnnotation, StrCat(o.holder, " ", p.boot_id, " ", p.pid, " ", p.host, " ", p.pid_namespace)}};
  }
  return lease;
}

std::string Spec(const json& lease, const char* field) { return util::JsonString(util::JsonObject(lease, "spec"), field); }
std::string Holder(const json& lease) { return Spec(lease, "holderIdentity"); }
std::string Annotation(const json& lease, const char* name) {
  return util::JsonString(util::JsonObject(util::JsonObject(lease, "metadata"), "annotations"), name);
}
// Who holds the lease, or who held it last when it has been released since.
std::string DescribeHolder(const json& lease) {
  if (!Holder(lease).empty()) return Holder(lease);
  const std::string last = Annotation(lease, kLastHolderAnnotation);
  return last.empty() ? "none" : last + " (finished since)";
}

std::string Version(const json& lease) { return util::MetaString(lease, "resourceVersion"); }

bool ProcessExists(int pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; }

// What a waiting sync knows of the lease: the version it last saw change, and since when.
struct Observation {
  std::string version;
  std::chrono::steady_clock::time_point since;
  json lease;
};

// Free, or unchanged for its whole duration as this process observed it, or its holder is gone here.
bool Takeable(const json& lease, const LockOptions& o, Observation& seen, util::Clock& clock) {
  if (Holder(lease).empty() || Holder(lease) == o.holder) return true;
  if (HolderGoneHere(lease, o.place, ProcessExists)) {
    // Gone, but its last writes may still be inside the server until their bound (WriteBound from the start
    // of its last renewal, which renewTime records on this very machine's clock): taken once that passed.
    std::chrono::system_clock::time_point renewed;
    if (util::ParseRfc3339(Spec(lease, "renewTime"), &renewed)) {
      const int64_t held_for = util::JsonInt(util::JsonObject(lease, "spec"), "leaseDurationSeconds");
      const auto duration = held_for > 0 ? std::chrono::milliseconds(std::min<int64_t>(held_for, 3600) * 1000)
                                         : std::chrono::duration_cast<std::chrono::milliseconds>(o.lease_duration);
      return clock.Now() >= renewed + WriteBound(duration) + kGoneSlack;
    }
  }
  if (Version(lease) != seen.version) {
    seen.version = Version(lease);
    seen.since = clock.Steady();
  }
  // A server's number is clamped to a year, so converting it to the steady clock's unit cannot overflow.
  // A holder's lease without a duration (written by hand or by another tool) is waited for as long as ours.
  const int64_t seconds = util::JsonInt(util::JsonObject(lease, "spec"), "leaseDurationSeconds");
  const auto duration = seconds > 0 ? std::chrono::seconds(std::min<int64_t>(seconds, int64_t{366} * 24 * 3600))
                                    : std::chrono::duration_cast<std::chrono::seconds>(o.lease_duration);
  return clock.Steady() - seen.since >= duration;
}

// What taking the lease wrote, and when that write began (the lock counts as held from then).
struct Taken {
  json lease;
  std::chrono::steady_clock::time_point started;
};

// One attempt: create the lease, or take it over when takeable. nullopt: held by another.
util::Result<std::optional<Taken>> TryTake(kube::Client& client, util::Clock& clock, const LockOptions& o,
                                           Observation& seen) {
  auto current = client.Get(kLeaseRef);
  json wanted = LeaseObject(o, clock);
  if (!current) {
    if (!kube::IsReason(current.error(), "NotFound")) return current.error();
  } else {
    seen.lease = *current;
    if (!Takeable(*current, o, seen, clock)) return std::optional<Taken>();
    wanted["metadata"]["resourceVersion"] = Version(*current);
  }
  const std::string acquired = Spec(wanted, "acquireTime");
  const auto mine = [&](const json& live) { return Holder(live) == o.holder && Spec(live, "acquireTime") == acquired; };
  const auto started = clock.Steady();
  auto written = kube::WriteSettled(client, wanted, mine, {kube::DryRun::kNone, kube::Fence::kSkip, std::nullopt});
  if (!written) {
    if (written.error().kind == util::ErrorKind::kConflict) return std::optional<Taken>();  // lost the race
    return written.error();
  }
  return std::optional<Taken>(Taken{*written, started});
}

}  // namespace

bool HolderGoneHere(const json& lease, const ProcessPlace& here, const std::function<bool(int pid)>& exists) {
  const auto fields = util::Split(Annotation(lease, kProcessAnnotation), ' ');
  if (!Complete(here) || fields.size() != 5 || fields[0].empty() || fields[0] != Holder(lease)) return false;
  if (fields[1] != here.boot_id || fields[3] != here.host || fields[4] != here.pid_namespace) return false;
  int pid = 0;
  const std::string& text = fields[2];
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pid);
  if (ec != std::errc() || end != text.data() + text.size() || pid <= 0) return false;
  return !exists(pid);
}

std::string DefaultHolderIdentity() {
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  std::random_device rd;
  return StrCat(host, "-", ::getpid(), "-", std::hex, rd() & 0xffffff);
}

ProcessPlace CurrentPlace() {
  char host[256] = {0};
  ProcessPlace p;
  // Linux: unique per boot of this machine, shared by every container on it.
  p.boot_id = ReadFirstLine("/proc/sys/kernel/random/boot_id");
  if (::gethostname(host, sizeof host - 1) == 0) p.host = host;
  p.pid_namespace = ReadPidNamespace();
  p.pid = static_cast<int>(::getpid());
  // A field with a space would shift the record's fields: leave the shortcut off instead.
  for (std::string* field : {&p.boot_id, &p.host, &p.pid_namespace}) {
    if (field->find(' ') != std::string::npos) field->clear();
  }
  return p;
}

LockOptions DefaultLockOptions() {
  LockOptions o;
  o.holder = DefaultHolderIdentity();
  o.place = CurrentPlace();
  return o;
}

util::Result<std::unique_ptr<SyncLock>> SyncLock::Acquire(kube::Client& client, util::Clock& clock,
                                                          util::Logger& log, const LockOptions& o) {
  const auto deadline = clock.Steady() + o.wait;
  bool announced = false;
  Observation seen{"", clock.Steady(), json::object()};
  while (true) {
    auto taken = TryTake(client, clock, o, seen);
    if (!taken) return taken.error();
    if (*taken) {
      return std::unique_ptr<SyncLock>(new SyncLock(client, clock, log, o, (*taken)->lease, (*taken)->started));
    }
    const std::string holder = Holder(seen.lease);
    if (clock.Steady() >= deadline) {
      auto e = util::MakeError(util::ErrorKind::kConflict, StrCat("another sync holds the lock (lease ", kStateNamespace,
                                                                  "/", kLeaseName, ", holder ", holder, ")"));
      e.hint = "Wait for it to finish, or raise --lock-timeout (a holder that stopped renewing is taken over "
               "once its lease duration has passed; one gone from this machine once its last writes' time limit, "
               "5/6 of the lease after its last renewal, has).";
      return e;
    }
    if (!announced) {
      log.Log(0, StrCat("waiting for the sync lock held by ", holder, "..."));
      announced = true;
    }
    clock.SleepFor(o.poll);
  }
}

SyncLock::SyncLock(kube::Client& client, util::Clock& clock, util::Logger& log, LockOptions options, json lease,
                   std::chrono::steady_clock::time_point taken_at)
    : client_(client),
      clock_(clock),
      log_(log),
      options_(std::move(options)),
      lease_(std::move(lease)),
      renewed_started_(taken_at) {
  // Check before each attempt (it may wait for a renewal); then, on the transport's thread right before the
  // write goes out, the same test without waiting: a sync stopped (SIGSTOP, a paused VM) between the two
  // past the lease sends nothing once it runs again.
  client_.set_write_fence([this] { return Check(); },
                          [this]() -> std::optional<kube::WriteWindow> {
                            std::lock_guard<std::mutex> lock(mu_);
                            if (!lost_.empty() || !HeldLocked(clock_.Steady())) return std::nullopt;
                            // Another process takes over only after a whole lease unchanged; a margin for
                            // the way to the server and for clocks that run apart.
                            const auto lease = std::chrono::duration_cast<std::chrono::milliseconds>(options_.lease_duration);
                            return kube::WriteWindow{renewed_started_ + WriteBound(lease),
                                                     renewed_started_ + lease - lease / 15};
                          });
  renewer_ = std::thread([this] { RenewLoop(); });
}

bool SyncLock::HeldLocked(std::chrono::steady_clock::time_point now) const {
  const auto lease = std::chrono::duration_cast<std::chrono::milliseconds>(options_.lease_duration);
  return lost_.empty() && now - renewed_started_ <= lease * 2 / 3;
}

void SyncLock::RenewOnce(std::unique_lock<std::mutex>& lock) {
  json renewed = lease_;
  const std::string renew_time = util::FormatRfc3339Micro(clock_.Now());
  util::WritableObject(renewed, "spec")["renewTime"] = renew_time;
  const auto started = clock_.Steady();
  const auto period = std::chrono::duration_cast<std::chrono::milliseconds>(options_.lease_duration) / 3;
  // Cut at the renew deadline: an answer after it would come too late to keep writing. Past the deadline
  // (Check is waiting), each attempt gets a period.
  const auto deadline = std::max(renewed_started_ + options_.lease_duration * 2 / 3, started + period);
  const kube::RequestOptions request{kube::DryRun::kNone, kube::Fence::kSkip, deadline};
  renewing_ = true;  // writes wait at the fence meanwhile: the renewal is never queued behind them
  lock.unlock();  // no request under the lock: Check() must never wait for the network while holding it
  const auto mine = [&](const json& live) { return Holder(live) == options_.holder && Spec(live, "renewTime") == renew_time; };
  auto written = kube::WriteSettled(client_, renewed, mine, request);
  util::Result<json> current = json();
  const bool conflict = !written && written.error().kind == util::ErrorKind::kConflict;
  if (conflict) current = client_.Get(kLeaseRef, request);
  lock.lock();
  renewing_ = false;
  if (written) {
    lease_ = *written;
    if (log_.Enabled(2)) {  // bench/throttle.sh reads these: how close renewals come to their deadline
      using std::chrono::duration_cast, std::chrono::milliseconds;
      log_.Log(2, StrCat("renewed the sync lock in ", duration_cast<milliseconds>(clock_.Steady() - started).count(),
                         "ms, ", duration_cast<milliseconds>(clock_.Steady() - renewed_started_).count(),
                         "ms after the previous renewal began (deadline ",
                         duration_cast<milliseconds>(options_.lease_duration * 2 / 3).count(), "ms)"));
    }
    renewed_started_ = started;
    renew_error_.clear();
    waiting_announced_ = false;
  } else if (conflict && current && Holder(*current) == options_.holder) {
    lease_ = *current;  // changed (a renewal whose answer was lost) but still ours: renew on top of it
    renew_error_ = "the lease changed since the last renewal";
  } else if (conflict) {
    lost_ = StrCat("lost the sync lock (lease ", kStateNamespace, "/", kLeaseName, ") to holder ",
                   current ? DescribeHolder(*current) : "unknown", "; stopped before writing more");
  } else {
    // The first failure of a run of them is a warning; the rest would repeat it every second.
    const std::string text = StrCat("could not renew the sync lock: ", written.error().message);
    renew_error_.empty() ? log_.Warning(text) : log_.Log(2, text);
    renew_error_ = written.error().message;
  }
  changed_cv_.notify_all();
}

void SyncLock::RenewLoop() {
  // Every 1/6 of the lease: a write's bound (WriteBound from the last renewal) then leaves it at least
  // 2/3 of the lease, about 10 s of a 15 s lease.
  const auto period = std::chrono::duration_cast<std::chrono::milliseconds>(options_.lease_duration) / 6;
  std::unique_lock<std::mutex> lock(mu_);
  auto wait = period;
  while (!changed_cv_.wait_for(lock, wait, [this] { return stop_; })) {
    RenewOnce(lock);
    if (!lost_.empty()) return;
    wait = renew_error_.empty() ? period : std::min(period, kRenewRetry);
  }
}

util::Status SyncLock::Check() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (!lost_.empty()) return util::MakeError(util::ErrorKind::kConflict, lost_);
    const auto now = clock_.Steady();
    // A renewal has its own lane: while it is on the wire no new write starts, so under a 429 storm it
    // meets a server slot as soon as one frees instead of waiting behind the queued applies. Its deadline
    // bounds the wait.
    if (renewing_ && !stop_) {
      changed_cv_.wait_for(lock, std::chrono::milliseconds(200));
      continue;
    }
    if (HeldLocked(now)) return util::Ok();
    const auto silent = std::chrono::duration_cast<std::chrono::seconds>(now - renewed_started_);
    if (silent >= options_.lease_duration * kGiveUpLeases || stop_) {
      lost_ = StrCat("could not renew the sync lock (lease ", kStateNamespace, "/", kLeaseName, ") for ", silent.count(),
                     "s (", renew_error_.empty() ? "no answer" : renew_error_, "); stopped before writing more");
      return util::MakeError(util::ErrorKind::kConflict, lost_);
    }
    if (!waiting_announced_) {
      log_.Warning(StrCat("the sync lock was not renewed for ", silent.count(), "s (",
                          renew_error_.empty() ? "no answer yet" : renew_error_, "); writes wait for a renewal"));
      waiting_announced_ = true;
    }
    changed_cv_.wait_for(lock, std::chrono::milliseconds(200));
  }
}

SyncLock::~SyncLock() {
  client_.set_write_fence(nullptr);
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  changed_cv_.notify_all();
  renewer_.join();
  if (!lost_.empty()) return;  // someone else holds it now (or may): leave their lease alone
  json released = lease_;
  util::WritableObject(released, "spec")["holderIdentity"] = "";
  util::WritableObject(util::WritableObject(released, "metadata"), "annotations")[kLastHolderAnnotation] = options_.holder;
  // Best effort: an unreleased lease expires, and a holder gone from this place is taken over at once.
  auto written = client_.Update(released, {kube::DryRun::kNone, kube::Fence::kSkip, clock_.Steady() + kReleaseTimeout});
  if (!written) log_.Log(2, StrCat("could not release the sync lock: ", written.error().message));
}

}  // namespace tazuna::state
