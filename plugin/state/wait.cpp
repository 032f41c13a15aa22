#include "state/wait.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "util/strings.hpp"

namespace tazuna::state {

namespace {

using GroupKey = std::tuple<std::string, std::string, std::string>;  // apiVersion, kind, namespace

size_t CountWaiting(const std::vector<WaitItem>& items) {
  return static_cast<size_t>(std::count_if(items.begin(), items.end(), StillWaiting));
}

}  // namespace

// One request for the group: a GET when one object waits, else a LIST of the kind in the namespace
// (as kstatus's pollers do), so many waiting Deployments cost one request per poll.
void ReadinessWaiter::Poll(std::vector<WaitItem*>& group) {
  const StateKey& k = group.front()->key;
  const auto judge = [](WaitItem& item, const util::Result<nlohmann::json>& got) {
    if (got) {
      item.last = JudgeReadiness(*got);
    } else if (kube::IsReason(got.error(), "NotFound")) {
      item.last = {ReadyState::kInProgress, "not found"};
    }  // another failure (a timeout, a 5xx after retries): keep the last judgement and poll again
  };
  if (group.size() == 1) {
    judge(*group.front(), client_.Get({k.ApiVersion(), k.kind, k.namespace_name, k.name}));
    return;
  }
  auto listed = client_.List(k.ApiVersion(), k.kind, k.namespace_name);
  if (!listed) {
    log_.Log(2, util::StrCat("wait: list ", k.kind, " failed: ", listed.error().message));
    return;
  }
  std::map<std::string, const nlohmann::json*> by_name;
  for (const auto& o : *listed) {
    if (o.contains("metadata") && o["metadata"].contains("name") && o["metadata"]["name"].is_string()) {
      by_name[o["metadata"]["name"].get<std::string>()] = &o;
    }
  }
  for (WaitItem* item : group) {
    const auto it = by_name.find(item->key.name);
    if (it == by_name.end()) {
      item->last = {ReadyState::kInProgress, "not found"};
    } else {
      item->last = JudgeReadiness(*it->second);
    }
  }
}

void ReadinessWaiter::Wait(std::vector<WaitItem>& items, const WaitObserver& observe) {
  const auto report = [&](const WaitItem& item) {
    if (observe) observe({&item, CountWaiting(items), items.size(), &items});
  };
  auto interval = intervals_.first;
  while (true) {
    const auto now = clock_.Steady();
    for (auto& item : items) {
      if (!StillWaiting(item) || now < item.deadline) continue;
      item.timed_out = true;
      report(item);
    }
    if (CountWaiting(items) == 0) return;
    // A failure ends the wait at once: the run fails whatever the rest does, so nobody waits for a timeout.
    if (std::any_of(items.begin(), items.end(), [](const WaitItem& i) { return i.last.state == ReadyState::kFailed; })) {
      return;
    }
    clock_.SleepFor(interval);
    interval = std::min(intervals_.max, interval * 2);
    std::map<GroupKey, std::vector<WaitItem*>> groups;
    for (auto& item : items) {
      if (StillWaiting(item)) groups[{item.key.ApiVersion(), item.key.kind, item.key.namespace_name}].push_back(&item);
    }
    for (auto& [key, group] : groups) {
      std::vector<Readiness> before;
      for (const WaitItem* item : group) before.push_back(item->last);
      Poll(group);
      for (size_t i = 0; i < group.size(); ++i) {
        const bool news = !(group[i]->last == before[i]) &&
                          !(before[i].message == kNotReadYet && group[i]->last.state == ReadyState::kReady);
        if (news) report(*group[i]);
      }
    }
  }
}

}  // namespace tazuna::state
