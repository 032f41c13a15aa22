#pragma once

#include <ostream>
#include <string>

#include "state/readiness/wait.hpp"

namespace tazuna::cli {

/// How readiness waits are told on stderr.
enum class WaitStyle {
  kLive,   ///< a terminal: one line redrawn in place
  kLines,  ///< one line per change of an object's judgement, so logs show the story
  kJson,   ///< -o json: one JSON event per change (stdout keeps its one document)
};

/// kJson for -o json, else kLive on a terminal (`live`), else kLines.
WaitStyle WaitStyleFor(const std::string& output, bool live);

/// Prints readiness waits on stderr. kLive: `waiting for 3 of 41 objects: deployment.apps/web -n demo
/// (2/3 updated, 1 available)`; kLines: `wait: deployment.apps/web -n demo: 2/3 updated, 1 available`;
/// kJson: `{"type":"wait","manifest":...,"apiVersion":...,"kind":...,"namespace":...,"name":...,
/// "state":"in progress","message":"2/3 updated, 1 available","waiting":3,"total":41}`. An object
/// counted ready without proof (a grace period) also gets `warning: <object>: <why>` (kJson: a
/// "warning" field) in every style.
class WaitPrinter {
 public:
  WaitPrinter(std::ostream& err, WaitStyle style) : err_(err), style_(style) {}
  void Update(const state::WaitUpdate& update);
  /// Clears the live line.
  void Done();

 private:
  void Live(const state::WaitUpdate& update);

  std::ostream& err_;
  WaitStyle style_;
  bool drawn_ = false;
};

/// `deployment.apps/web -n demo` for a waited object.
std::string WaitObjectName(const state::WaitItem& item);

/// The JSON event of one update (WaitStyle::kJson), one line without its newline.
std::string WaitEventJson(const state::WaitUpdate& update);

}  // namespace tazuna::cli
