#include "state/readiness/wait.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "util/strings.hpp"

namespace tazuna::state {

namespace {

using GroupKey = std::tuple<std::string, std::string, std::string>;  // apiVersion, kind, namespace

const Readiness kGone{ReadyState::kNotFound, "not found", ""};

// spec.versions[name == version].subresources.status of a CRD.
StatusSubresource StatusOfVersion(const nlohmann::json& crd, const std::string& version) {
  const auto spec = crd.find("spec");
  if (spec == crd.end() || !spec->is_object() || !spec->contains("versions") || !(*spec)["versions"].is_array()) {
    return StatusSubresource::kNo;
  }
  for (const auto& v : (*spec)["versions"]) {
    if (!v.is_object() || v.value("name", "") != version) continue;
    const auto sub = v.find("subresources");
    return sub != v.end() && sub->is_object() && sub->contains("status") ? StatusSubresource::kYes
                                                                          : StatusSubresource::kNo;
  }
  return StatusSubresource::kNo;
}

}  // namespace

size_t CountWaiting(const std::vector<WaitItem>& items) {
  return static_cast<size_t>(std::count_if(items.begin(), items.end(), StillWaiting));
}

bool WaitEnds(const std::vector<WaitItem>& items) {
  return std::any_of(items.begin(), items.end(), [](const WaitItem& i) {
    return i.last.state == ReadyState::kFailed || i.last.state == ReadyState::kNotFound;
  });
}

// Read once per kind and wait; an answer that cannot be had (no CRD: an aggregated API; a CRD this user
// may not read) means kstatus's rules, said at -v 2.
StatusSubresource ReadinessWaiter::StatusSubresourceOf(const StateKey& k) {
  if (BuiltinGroup(k.group)) return StatusSubresource::kNo;
  const std::string cache_key = k.ApiVersion() + "/" + k.kind;
  if (const auto it = subresources_.find(cache_key); it != subresources_.end()) return it->second;
  StatusSubresource answer = StatusSubresource::kNo;
  auto info = client_.Resolve(k.ApiVersion(), k.kind);
  const std::string crd_name = info ? info->resource + "." + k.group : "";
  auto crd = info ? client_.Get({"apiextensions.k8s.io/v1", "CustomResourceDefinition", "", crd_name})
                  : util::Result<nlohmann::json>(info.error());
  if (crd) {
    answer = StatusOfVersion(*crd, k.version);
  } else if (info && !kube::IsReason(crd.error(), "NotFound")) {
    // The CRD exists or may (forbidden, a timeout): whether only a controller writes status is unknown, so
    // nothing of the kind is concluded ready.
    answer = StatusSubresource::kUnknown;
    crd_errors_[cache_key] = util::StrCat("cannot read CustomResourceDefinition ", crd_name, ": ", crd.error().message);
    log_.Warning(util::StrCat(crd_errors_[cache_key], ": the readiness of ", k.kind, " objects cannot be judged"));
  } else {  // no CRD serves it (an aggregated API): kstatus's rules
    log_.Log(2, util::StrCat("wait: no CRD read for ", cache_key, " (", crd.error().message,
                             "): its status is judged by kstatus's rules"));
  }
  subresources_[cache_key] = answer;
  return answer;
}

void ReadinessWaiter::Judge(WaitItem& item, const nlohmann::json& object) {
  const auto seen_for = std::chrono::duration_cast<std::chrono::seconds>(clock_.Steady() - item.since);
  const JudgeContext context{StatusSubresourceOf(item.key), clock_.Now(), seen_for, item.grace};
  item.last = JudgeReadiness(object, context);
  if (const auto it = crd_errors_.find(item.key.ApiVersion() + "/" + item.key.kind); it != crd_errors_.end()) {
    item.last = {ReadyState::kInProgress, "readiness unknown: " + it->second, ""};
    item.read_error = it->second;
  }
  const auto meta = object.find("metadata");
  if (meta != object.end() && meta->is_object()) item.uid = meta->value("uid", item.uid);
}

// One request for the group: a GET when one object waits, else a LIST of the kind in the namespace
// (as kstatus's pollers do), so many waiting Deployments cost one request per poll.
void ReadinessWaiter::Poll(std::vector<WaitItem*>& group) {
  const StateKey& k = group.front()->key;
  if (group.size() == 1) {
    auto got = client_.Get({k.ApiVersion(), k.kind, k.namespace_name, k.name});
    group.front()->read_error.clear();
    if (got) {
      Judge(*group.front(), *got);
    } else if (kube::IsReason(got.error(), "NotFound")) {
      group.front()->last = kGone;
    } else {  // another failure (a timeout, a 5xx after retries): keep the last judgement and poll again
      group.front()->read_error = got.error().message;
    }
    return;
  }
  auto listed = client_.List(k.ApiVersion(), k.kind, k.namespace_name);
  if (!listed) {
    log_.Log(2, util::StrCat("wait: list ", k.kind, " failed: ", listed.error().message));
    for (WaitItem* item : group) item->read_error = listed.error().message;
    return;
  }
  std::map<std::string, const nlohmann::json*> by_name;
  for (const auto& o : *listed) {
    if (o.contains("metadata") && o["metadata"].contains("name") && o["metadata"]["name"].is_string()) {
      by_name[o["metadata"]["name"].get<std::string>()] = &o;
    }
  }
  for (WaitItem* item : group) {
    item->read_error.clear();
    const auto it = by_name.find(item->key.name);
    if (it == by_name.end()) {
      item->last = kGone;
    } else {
      Judge(*item, *it->second);
    }
  }
}

std::vector<std::vector<WaitItem*>> ReadinessWaiter::ByKindAndNamespace(const std::vector<WaitItem*>& items) {
  std::map<GroupKey, std::vector<WaitItem*>> groups;
  for (WaitItem* item : items) groups[{item->key.ApiVersion(), item->key.kind, item->key.namespace_name}].push_back(item);
  std::vector<std::vector<WaitItem*>> out;
  out.reserve(groups.size());
  for (auto& [key, group] : groups) out.push_back(std::move(group));
  return out;
}

void ReadinessWaiter::Read(const std::vector<WaitItem*>& items) {
  for (auto& group : ByKindAndNamespace(items)) {
    for (WaitItem* item : group) {
      if (item->since == std::chrono::steady_clock::time_point{}) item->since = clock_.Steady();
    }
    Poll(group);
  }
}

void ReadinessWaiter::Wait(std::vector<WaitItem>& items, const WaitObserver& observe) {
  const auto report = [&](WaitItem& item) {
    item.told = true;
    if (observe) observe({&item, CountWaiting(items), items.size(), &items});
  };
  for (auto& item : items) {
    if (item.since == std::chrono::steady_clock::time_point{}) item.since = clock_.Steady();
    if (!item.told && StillWaiting(item) && item.last.message != kNotReadYet) report(item);
  }
  auto interval = intervals_.first;
  while (true) {
    const auto now = clock_.Steady();
    for (auto& item : items) {
      if (!StillWaiting(item) || now < item.deadline) continue;
      item.timed_out = true;
      report(item);
    }
    // A failure ends the wait at once: the run fails whatever the rest does, so nobody waits for a
    // timeout. So does a missing object: the caller re-applies it or knows it is done.
    if (CountWaiting(items) == 0 || WaitEnds(items)) return;
    clock_.SleepFor(interval);
    interval = std::min(intervals_.max, interval * 2);
    std::vector<WaitItem*> waiting;
    for (auto& item : items) {
      if (StillWaiting(item)) waiting.push_back(&item);
    }
    for (auto& group : ByKindAndNamespace(waiting)) {
      std::vector<Readiness> before;
      for (const WaitItem* item : group) before.push_back(item->last);
      Poll(group);
      for (size_t i = 0; i < group.size(); ++i) {
        const bool news = !(group[i]->last == before[i]) &&
                          !(before[i].message == kNotReadYet && group[i]->last.state == ReadyState::kReady &&
                            group[i]->last.warning.empty());
        if (news) report(*group[i]);
      }
    }
  }
}

}  // namespace tazuna::state
