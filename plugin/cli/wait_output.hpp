#pragma once

#include <ostream>
#include <string>

#include "state/wait.hpp"

namespace tazuna::cli {

/// Prints readiness waits on stderr. `live` (a terminal): one line redrawn in place,
/// `waiting for 3 of 41 objects: deployment.apps/web -n demo (1/2 available)`; otherwise one line per
/// change of an object's state, `wait: deployment.apps/web -n demo: 1/2 available`, so logs show the story.
class WaitPrinter {
 public:
  WaitPrinter(std::ostream& err, bool live) : err_(err), live_(live) {}
  void Update(const state::WaitUpdate& update);
  /// Clears the live line.
  void Done();

 private:
  std::ostream& err_;
  bool live_;
  bool drawn_ = false;
};

/// `deployment.apps/web -n demo` for a waited object.
std::string WaitObjectName(const state::WaitItem& item);

}  // namespace tazuna::cli
