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

  /// Runs `o.Complete` then `o.Validate` with no flags given; "" when both pass, else the error as
  /// ReportError prints it (message and hint).
  template <class Options>
  std::string CompleteAndValidate(Options& o) {
    FlagSet flags;
    if (auto st = o.Complete(ctx, flags); !st) return Text(st.error());
    if (auto st = o.Validate(); !st) return Text(st.error());
    return "";
  }

  /// As CompleteAndValidate, for a command with positional arguments.
  template <class Options>
  std::string CompleteAndValidate(Options& o, const std::vector<std::string>& args) {
    FlagSet flags;
    if (auto st = o.Complete(ctx, flags, args); !st) return Text(st.error());
    if (auto st = o.Validate(); !st) return Text(st.error());
    return "";
  }

 private:
  static std::string Text(const util::Error& e) {
    std::ostringstream text;
    static_cast<void>(ReportError(text, e, ExitStyle::kStandard));  // only the text is compared
    return text.str();
  }
};

}  // namespace tazuna::cli::testing
