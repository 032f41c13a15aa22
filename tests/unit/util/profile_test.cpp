#include "util/profile.hpp"

#include <doctest/doctest.h>

#include <sstream>

namespace tazuna::util {

TEST_CASE("profile: silent until enabled, then one line per phase that ran and the process total") {
  std::ostringstream off;
  { ProfileScope scope(ProfilePhase::kBody); }
  PrintProfile(off, std::chrono::milliseconds(5));
  CHECK(off.str().empty());  // the only test that enables it: nothing was recorded before
  EnableProfile();
  { ProfileScope scope(ProfilePhase::kBody); }
  { ProfileScope scope(ProfilePhase::kSync, ProfileClock::kProcess); }
  ProfileBytes(ProfilePhase::kStateWrite, 123);
  std::ostringstream on;
  PrintProfile(on, std::chrono::milliseconds(5));
  const std::string out = on.str();
  CHECK(out.find("profile: sync calls=1 cpu_ms=") == 0);  // in the order of ProfilePhase
  CHECK(out.find("\nprofile: body calls=1 ") != std::string::npos);
  CHECK(out.find("\nprofile: state-write calls=0 cpu_ms=0.0 wall_ms=0.0 bytes=123\n") != std::string::npos);
  CHECK(out.find("\nprofile: total calls=1 ") != std::string::npos);
  CHECK(out.find("wall_ms=5.0\n") != std::string::npos);
  CHECK(out.find("render") == std::string::npos);  // did not run
}

}  // namespace tazuna::util
