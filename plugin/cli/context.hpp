#pragma once

#include <functional>
#include <istream>
#include <memory>
#include <ostream>

#include "kube/exec_provider_pool.hpp"
#include "kube/rest_config.hpp"
#include "kube/transport.hpp"
#include "util/clock.hpp"
#include "util/environment.hpp"
#include "util/file_reader.hpp"
#include "util/logger.hpp"
#include "util/process.hpp"

namespace tazuna::cli {

/// Builds the HTTP transport for a resolved connection (real: libcurl; tests: a fake).
using TransportFactory =
    std::function<std::unique_ptr<kube::Transport>(const kube::RestConfig&, util::Logger&)>;

/// Everything a command may touch: streams, the environment snapshot and the I/O seams.
/// Built in main.cpp (real implementations) or in tests (fakes).
struct Context {
  std::istream& in;
  std::ostream& out;  ///< results (printers only)
  std::ostream& err;  ///< logs, progress, errors
  util::Environment env;
  util::Clock& clock;
  util::FileReader& files;
  util::ProcessRunner& processes;
  TransportFactory make_transport;
  bool err_is_terminal = false;  ///< progress bars only on a terminal
  /// Set in a fleet run: the contexts' clients share exec credential plugins per user; null: each own.
  kube::ExecProviderPool* exec_pool = nullptr;
};

}  // namespace tazuna::cli
