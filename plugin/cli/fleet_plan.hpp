#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "util/file_reader.hpp"
#include "util/result.hpp"

namespace tazuna::cli {

/// A plan over a fleet: `state diff --out FILE --contexts ...` writes one file holding each context's own
/// plan, verbatim: {"apiVersion":"tazuna.pepabo.com/v1","kind":"FleetPlan",
/// "plans":[{"context":C,"plan":TEXT}]};
/// `state sync --plan FILE --contexts ...` applies each context's part in that context, where it pins the
/// context's server, cluster, namespace and states as a single plan does.
class FleetPlanFiles {
 public:
  /// A private temporary directory for one file per context (removed with this object).
  static util::Result<std::unique_ptr<FleetPlanFiles>> Make(const std::vector<std::string>& contexts);
  /// Splits the fleet plan `path` into the contexts' files; kUsage when it is no fleet plan or its contexts
  /// are not exactly `contexts`.
  static util::Result<std::unique_ptr<FleetPlanFiles>> Split(util::FileReader& files, const std::string& path,
                                                             const std::vector<std::string>& contexts);
  ~FleetPlanFiles();
  /// The plan file of `context`.
  const std::string& FileOf(const std::string& context) const { return by_context_.at(context); }
  /// Joins the contexts' plans (each must have been written) into `path`, written whole or not at all.
  util::Status Join(util::FileReader& files, const std::vector<std::string>& contexts, const std::string& path) const;

 private:
  std::string dir_;
  std::map<std::string, std::string> by_context_;
};

/// `args` with the value of `flag` ("--out", "--plan"; `--flag V` or `--flag=V`, before any `--`) replaced.
std::vector<std::string> WithFlagValue(std::vector<std::string> args, const std::string& flag,
                                       const std::string& value);

}  // namespace tazuna::cli
