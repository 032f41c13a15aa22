#pragma once

#include <mutex>
#include <ostream>
#include <string_view>

namespace tazuna::util {

/// Leveled log lines on stderr, kubectl's -v levels: 0 warnings, 2 per-object steps,
/// 6 method/URL/status/latency, 7 request headers, 8 bodies. Callers redact secrets
/// before formatting (see kube::Redact*). Thread-safe.
class Logger {
 public:
  Logger(std::ostream& err, int verbosity) : err_(err), verbosity_(verbosity) {}
  bool Enabled(int level) const { return level <= verbosity_; }
  /// Writes `msg` as one line when `level` is enabled.
  void Log(int level, std::string_view msg);
  /// Writes "Warning: msg" (always shown), as kubectl prints server warnings.
  void Warning(std::string_view msg);
  int verbosity() const { return verbosity_; }

 private:
  std::ostream& err_;
  int verbosity_;
  std::mutex mu_;
};

}  // namespace tazuna::util
