#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "util/result.hpp"

namespace tazuna::util {

/// What to run. argv[0] is looked up on PATH unless it contains '/'. No shell is involved.
struct ProcessRequest {
  std::vector<std::string> argv;
  std::string cwd;                              ///< empty: inherit
  std::map<std::string, std::string> env;       ///< the full environment of the child
  std::string stdin_data;                       ///< written to the child's stdin, then closed
  std::chrono::milliseconds timeout{0};         ///< 0: no limit; the child is killed after it
  bool pass_stderr = false;                     ///< true: stderr goes to ours (exec plugins)
};

struct ProcessResult {
  int exit_code = 0;  ///< exit status, or 128+signal
  std::string out;
  std::string err;
  bool timed_out = false;
};

/// Runs external programs (kustomize, helm, op, oras, git, diff, exec credential plugins).
struct ProcessRunner {
  virtual ~ProcessRunner() = default;
  /// Runs to completion. Error kToolMissing when argv[0] cannot be found or executed;
  /// a non-zero exit is NOT an error here (callers decide).
  virtual Result<ProcessResult> Run(const ProcessRequest& request) = 0;
};

/// fork/exec implementation.
struct RealProcessRunner : ProcessRunner {
  Result<ProcessResult> Run(const ProcessRequest& request) override;
};

/// Finds `name` on PATH (from `path_env`); returns empty when absent. Names with '/' are returned as is.
std::string LookPath(const std::string& name, const std::string& path_env);

}  // namespace tazuna::util
