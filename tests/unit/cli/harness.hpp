#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "../kube/fakes.hpp"
#include "cli/context.hpp"
#include "cli/flags.hpp"
#include "cli/report_error.hpp"

namespace tazuna::cli::testing {

/// A Context over string streams and fakes: no network, files, tools or real time.
struct Harness {
  std::istringstream in;
  std::ostringstream out;
  std::ostringstream err;
  kube::testing::FakeFiles files;
  kube::testing::FakeClock clock;
  kube::testing::FakeProcesses processes;
  Context ctx{in, out, err, util::Environment{}, clock, files, processes, nullptr};

  /// Runs `o.Complete` (with `args`, for a command with positional arguments) then `o.Validate` with no
  /// flags given; "" when both pass, else the error as ReportError prints it (message and hint).
  template <class Options>
  std::string CompleteAndValidate(Options& o, const std::vector<std::string>& args = {}) {
    FlagSet flags;
    util::Status st = util::Ok();
    if constexpr (requires { o.Complete(ctx, flags, args); }) {
      st = o.Complete(ctx, flags, args);
    } else {
      st = o.Complete(ctx, flags);
    }
    if (!st) return Text(st.error());
    if (auto valid = o.Validate(); !valid) return Text(valid.error());
    return "";
  }

 private:
  static std::string Text(const util::Error& e) {
    std::ostringstream text;
    static_cast<void>(ReportError(text, e));  // only the text is compared
    return text.str();
  }
};

/// CompleteAndValidate of new `Options` that `set` filled in, in a harness of their own.
template <class Options, class Set>
std::string CompleteWith(Set set, const std::vector<std::string>& args = {}) {
  Harness h;
  Options o;
  set(o);
  return h.CompleteAndValidate(o, args);
}

}  // namespace tazuna::cli::testing
