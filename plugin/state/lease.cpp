#include "state/lease.hpp"

#include <unistd.h>

#include <random>

#include "state/store.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

std::string DefaultHolderIdentity() {
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  std::random_device rd;
  return StrCat(host, "-", ::getpid(), "-", std::hex, rd() & 0xffffff);
}

namespace {

json LeaseObject(const std::string& holder, const LockOptions& o, util::Clock& clock) {
  const std::string now = util::FormatRfc3339Micro(clock.Now());
  return {{"apiVersion", "coordination.k8s.io/v1"},
          {"kind", "Lease"},
          {"metadata", {{"name", kLeaseName}, {"namespace", kStateNamespace}}},
          {"spec",
           {{"holderIdentity", holder},
            {"leaseDurationSeconds", o.lease_duration.count()},
            {"acquireTime", now},
            {"renewTime", now}}}};
}

// Seconds until the lease expires (<= 0: expired or free).
long long SecondsLeft(const json& lease, util::Clock& clock) {
  const json spec = lease.value("spec", json::object());
  if (spec.value("holderIdentity", "").empty()) return 0;
  std::chrono::system_clock::time_point renew;
  if (!util::ParseRfc3339(spec.value("renewTime", ""), &renew)) return 0;
  const auto expiry = renew + std::chrono::seconds(spec.value("leaseDurationSeconds", 0));
  return std::chrono::duration_cast<std::chrono::seconds>(expiry - clock.Now()).count();
}

// One attempt: create the lease, or take it over when free or expired. nullopt: held by another.
util::Result<std::optional<json>> TryTake(kube::Client& client, util::Clock& clock, const LockOptions& o,
                                          json* seen) {
  auto current = client.Get({"coordination.k8s.io/v1", "Lease", kStateNamespace, kLeaseName});
  json wanted = LeaseObject(o.holder, o, clock);
  util::Result<json> written = json();
  if (!current) {
    if (!kube::IsReason(current.error(), "NotFound")) return current.error();
    written = client.Create(wanted);
  } else {
    *seen = *current;
    if (SecondsLeft(*current, clock) > 0) return std::optional<json>();
    wanted["metadata"]["resourceVersion"] = (*current)["metadata"].value("resourceVersion", "");
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

}  // namespace

util::Result<std::unique_ptr<SyncLock>> SyncLock::Acquire(kube::Client& client, util::Clock& clock,
                                                          util::Logger& log, const LockOptions& o) {
  const auto deadline = clock.Now() + o.wait;
  bool announced = false;
  json seen;
  while (true) {
    auto taken = TryTake(client, clock, o, &seen);
    if (!taken) return taken.error();
    if (*taken) return std::unique_ptr<SyncLock>(new SyncLock(client, clock, log, o, **taken));
    const std::string holder = seen.value("spec", json::object()).value("holderIdentity", "");
    if (clock.Now() >= deadline) {
      auto e = util::MakeError(
          util::ErrorKind::kConflict,
          StrCat("another sync holds the lock (lease ", kStateNamespace, "/", kLeaseName, ", holder ", holder,
                 ", expires in ", SecondsLeft(seen, clock), "s)"));
      e.hint = "Wait for it to finish, or raise --lock-timeout.";
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
  renewer_ = std::thread([this] { RenewLoop(); });
}

void SyncLock::RenewLoop() {
  const auto period = std::chrono::duration_cast<std::chrono::milliseconds>(options_.lease_duration) / 3;
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_cv_.wait_for(lock, period, [this] { return stop_; })) {
    json renewed = lease_;
    renewed["spec"]["renewTime"] = util::FormatRfc3339Micro(clock_.Now());
    lock.unlock();
    auto written = client_.Update(renewed);
    lock.lock();
    if (written) {
      lease_ = *written;
    } else {
      log_.Warning(StrCat("could not renew the sync lock: ", written.error().message));
    }
  }
}

SyncLock::~SyncLock() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  renewer_.join();
  json released = lease_;
  released["spec"]["holderIdentity"] = "";
  auto written = client_.Update(released);  // best effort: an unreleased lease simply expires
  if (!written) log_.Log(2, StrCat("could not release the sync lock: ", written.error().message));
}

}  // namespace tazuna::state
