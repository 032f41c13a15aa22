#include "state/lease.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <random>

#include "state/store.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

// "<holderIdentity> <boot id> <pid>": trusted only while the holder it names still holds the lease.
constexpr char kProcessAnnotation[] = "tazuna.pepabo.com/holder-process";
constexpr char kLastHolderAnnotation[] = "tazuna.pepabo.com/last-holder";  // set on release

std::string ReadBootId() {
  // Linux: unique per boot of this machine. A missing file only disables the same-machine shortcut.
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  return std::string(util::Trim(id));
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
  if (!o.boot_id.empty()) {
    lease["metadata"]["annotations"] = {{kProcessAnnotation, StrCat(o.holder, " ", o.boot_id, " ", o.pid)}};
  }
  return lease;
}

std::string Holder(const json& lease) { return util::JsonString(util::JsonObject(lease, "spec"), "holderIdentity"); }
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

// The holder runs on this machine (same boot id) and its process no longer exists.
bool HolderDeadHere(const json& lease, const LockOptions& o) {
  const auto process = util::Split(Annotation(lease, kProcessAnnotation), ' ');
  if (o.boot_id.empty() || process.size() != 3 || process[0] != Holder(lease) || process[1] != o.boot_id) return false;
  const std::string& pid_text = process[2];
  int pid = 0;
  const auto [end, ec] = std::from_chars(pid_text.data(), pid_text.data() + pid_text.size(), pid);
  if (ec != std::errc() || end != pid_text.data() + pid_text.size()) return false;
  return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
}

// What a waiting sync knows of the lease: the version it last saw change, and since when.
struct Observation {
  std::string version;
  std::chrono::steady_clock::time_point since;
  json lease;
};

// Free, or unchanged for its whole duration as this process observed it, or its holder is dead here.
bool Takeable(const json& lease, const LockOptions& o, Observation& seen, util::Clock& clock) {
  if (Holder(lease).empty() || Holder(lease) == o.holder || HolderDeadHere(lease, o)) return true;
  if (Version(lease) != seen.version) {
    seen.version = Version(lease);
    seen.since = clock.Steady();
  }
  // A server's number is clamped to a year, so converting it to the steady clock's unit cannot overflow.
  const int64_t seconds = util::JsonInt(util::JsonObject(lease, "spec"), "leaseDurationSeconds");
  const auto duration = std::chrono::seconds(std::clamp<int64_t>(seconds, 0, int64_t{366} * 24 * 3600));
  return clock.Steady() - seen.since >= duration;
}

// One attempt: create the lease, or take it over when takeable. nullopt: held by another.
util::Result<std::optional<json>> TryTake(kube::Client& client, util::Clock& clock, const LockOptions& o,
                                          Observation& seen) {
  auto current = client.Get({"coordination.k8s.io/v1", "Lease", kStateNamespace, kLeaseName});
  json wanted = LeaseObject(o, clock);
  util::Result<json> written = json();
  if (!current) {
    if (!kube::IsReason(current.error(), "NotFound")) return current.error();
    written = client.Create(wanted);
  } else {
    seen.lease = *current;
    if (!Takeable(*current, o, seen, clock)) return std::optional<json>();
    wanted["metadata"]["resourceVersion"] = Version(*current);
    written = client.Update(wanted);
  }
  if (!written) {
    if (kube::IsReason(written.error(), "Conflict") || kube::IsReason(written.error(), "AlreadyExists")) {
      return std::optional<json>();  // lost the race; look again
    }
    return written.error();
  }
  return std::optional<json>(*written);
}

int64_t Nanos(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

std::string DefaultHolderIdentity() {
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  std::random_device rd;
  return StrCat(host, "-", ::getpid(), "-", std::hex, rd() & 0xffffff);
}

LockOptions DefaultLockOptions() {
  LockOptions o;
  o.holder = DefaultHolderIdentity();
  o.boot_id = ReadBootId();
  o.pid = static_cast<int>(::getpid());
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
    if (*taken) return std::unique_ptr<SyncLock>(new SyncLock(client, clock, log, o, **taken));
    const std::string holder = Holder(seen.lease);
    if (clock.Steady() >= deadline) {
      auto e = util::MakeError(util::ErrorKind::kConflict, StrCat("another sync holds the lock (lease ", kStateNamespace,
                                                                  "/", kLeaseName, ", holder ", holder, ")"));
      e.hint = "Wait for it to finish, or raise --lock-timeout (a holder that stopped renewing is taken over "
               "once its lease duration has passed).";
      return e;
    }
    if (!announced) {
      log.Log(0, StrCat("waiting for the sync lock held by ", holder, "..."));
      announced = true;
    }
    clock.SleepFor(o.poll);
  }
}

SyncLock::SyncLock(kube::Client& client, util::Clock& clock, util::Logger& log, LockOptions options, json lease)
    : client_(client), clock_(clock), log_(log), options_(std::move(options)), lease_(std::move(lease)) {
  last_renewed_ns_ = Nanos(clock_.Steady());
  renewer_ = std::thread([this] { RenewLoop(); });
}

std::string SyncLock::CurrentHolder() {
  auto lease = client_.Get({"coordination.k8s.io/v1", "Lease", kStateNamespace, kLeaseName});
  if (!lease) return "unknown (" + lease.error().message + ")";
  return DescribeHolder(*lease);
}

bool SyncLock::RenewOnce(std::unique_lock<std::mutex>& lock) {
  json renewed = lease_;
  util::WritableObject(renewed, "spec")["renewTime"] = util::FormatRfc3339Micro(clock_.Now());
  lock.unlock();  // no request under the lock: Check() must never wait for the network
  auto written = client_.Update(renewed);
  util::Result<json> current = json();
  if (!written && kube::IsReason(written.error(), "Conflict")) {
    current = client_.Get({"coordination.k8s.io/v1", "Lease", kStateNamespace, kLeaseName});
  }
  lock.lock();
  if (written) {
    lease_ = *written;
    last_renewed_ns_ = Nanos(clock_.Steady());
    return true;
  }
  if (!kube::IsReason(written.error(), "Conflict")) {
    log_.Warning(StrCat("could not renew the sync lock: ", written.error().message));
    return true;  // try again next period; Check() gives up after the renew deadline
  }
  if (current && Holder(*current) == options_.holder) {
    lease_ = *current;  // changed by someone else but still ours: renew on top of it next period
    return true;
  }
  lost_to_ = current ? DescribeHolder(*current) : "unknown";
  return false;
}

void SyncLock::RenewLoop() {
  const auto period = std::chrono::duration_cast<std::chrono::milliseconds>(options_.lease_duration) / 3;
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_cv_.wait_for(lock, period, [this] { return stop_; })) {
    if (!RenewOnce(lock)) return;
  }
}

util::Status SyncLock::Check() {
  const auto renew_deadline = options_.lease_duration * 2 / 3;
  std::string holder;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (lost_to_.empty() && Nanos(clock_.Steady()) - last_renewed_ns_ <=
                                std::chrono::duration_cast<std::chrono::nanoseconds>(renew_deadline).count()) {
      return util::Ok();
    }
    holder = lost_to_;
  }
  if (holder.empty()) holder = CurrentHolder();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (lost_to_.empty()) lost_to_ = holder;
  }
  return util::MakeError(util::ErrorKind::kConflict,
                         StrCat("lost the sync lock (lease ", kStateNamespace, "/", kLeaseName, ") to holder ", holder,
                                "; stopped before writing more"));
}

SyncLock::~SyncLock() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  renewer_.join();
  if (!lost_to_.empty()) return;  // someone else holds it now: leave their lease alone
  json released = lease_;
  util::WritableObject(released, "spec")["holderIdentity"] = "";
  util::WritableObject(util::WritableObject(released, "metadata"), "annotations")[kLastHolderAnnotation] = options_.holder;
  auto written = client_.Update(released);  // best effort: an unreleased lease simply expires
  if (!written) log_.Log(2, StrCat("could not release the sync lock: ", written.error().message));
}

}  // namespace tazuna::state
