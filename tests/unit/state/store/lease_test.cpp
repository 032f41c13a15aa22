#include "state/store/lease.hpp"

#include <doctest/doctest.h>

#include "util/strings.hpp"

namespace tazuna::state {
namespace {

using nlohmann::json;

json LeaseWith(const std::string& holder, const std::string& record) {
  json lease = {{"spec", {{"holderIdentity", holder}}}};
  if (!record.empty()) lease["metadata"]["annotations"]["tazuna.pepabo.com/holder-process"] = record;
  return lease;
}

}  // namespace

TEST_CASE("lease: a holder counts as gone only in the same boot, host and PID namespace, with its process gone") {
  const ProcessPlace here{"boot-1", "ci-node", "pid:[4026531836]", 4242};
  const auto none = [](int) { return false; };  // no process exists
  const auto all = [](int) { return true; };
  struct Case {
    const char* name;
    json lease;
    std::function<bool(int)> exists;
    bool want;
  };
  const std::vector<Case> cases = {
      {"same place, process gone", LeaseWith("h", "h boot-1 77 ci-node pid:[4026531836]"), none, true},
      {"same place, process alive", LeaseWith("h", "h boot-1 77 ci-node pid:[4026531836]"), all, false},
      // Two CI jobs on one node: same kernel (boot id), their own PID namespaces.
      {"another PID namespace", LeaseWith("h", "h boot-1 77 ci-node pid:[4026532179]"), none, false},
      {"another host name", LeaseWith("h", "h boot-1 77 other pid:[4026531836]"), none, false},
      {"another boot", LeaseWith("h", "h boot-2 77 ci-node pid:[4026531836]"), none, false},
      {"an older tazuna's record without host and namespace", LeaseWith("h", "h boot-1 77"), none, false},
      {"the record names another holder", LeaseWith("h2", "h boot-1 77 ci-node pid:[4026531836]"), none, false},
      {"no record", LeaseWith("h", ""), none, false},
      {"a pid that is not a number", LeaseWith("h", "h boot-1 7x ci-node pid:[4026531836]"), none, false},
      {"pid 0", LeaseWith("h", "h boot-1 0 ci-node pid:[4026531836]"), none, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(HolderGoneHere(c.lease, here, c.exists) == c.want);
  }
  // A place this process could not read fully turns the shortcut off.
  CHECK_FALSE(HolderGoneHere(cases[0].lease, ProcessPlace{"boot-1", "ci-node", "", 4242}, none));
}

TEST_CASE("lease: this process's place is read from the kernel") {
  const ProcessPlace p = CurrentPlace();
  CHECK(p.pid > 0);
  CHECK(util::StartsWith(p.pid_namespace, "pid:["));
  CHECK(p.boot_id.size() == 36);
  CHECK_FALSE(p.host.empty());
}

}  // namespace tazuna::state
