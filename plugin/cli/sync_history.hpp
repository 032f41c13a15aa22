#pragma once

#include <string>
#include <vector>

#include "cli/context.hpp"
#include "kube/client.hpp"
#include "state/plan/history.hpp"

namespace tazuna::cli {

/// What a writing sync knows about itself when it starts.
struct RevisionStart {
  state::RevisionSelection selection;
  std::vector<std::string> manifests;  ///< selected, in order
  std::string dir;                     ///< of tazuna.yaml: whether its git work tree is dirty
  std::string git_commit;              ///< GitCommit of `dir` ("" outside git)
  std::string lock_holder;
  std::string plan_digest;
  int history_limit = state::kDefaultHistoryLimit;
  std::string origin = {};  ///< Origin::Mark of the syncing tazuna.yaml: the records this sync trims
};

/// One sync's revision record: Start creates it `in-progress` (and trims history to the limit), Finish
/// marks it `succeeded` or `failed` with the sync's counts and changed objects.
class SyncHistory {
 public:
  /// `client`, `ctx` and `log` must outlive the SyncHistory. Errors: the record could not be created
  /// (the sync must not write then); a failed trim is only a warning.
  static util::Result<std::unique_ptr<SyncHistory>> Start(Context& ctx, kube::Client& client, util::Logger& log,
                                                          const RevisionStart& start);
  /// Best effort: a record that cannot be updated is a warning, the sync's own outcome stands. A report is
  /// recorded as it is (its counts and objects), `failed` when it failed, refused, or `after` (a write after
  /// the engine's) failed.
  void Finish(const util::Result<state::SyncReport>& report, const std::vector<state::SyncInput>& inputs,
              const util::Status& after = util::Ok());
  const std::string& id() const { return revision_.id; }
  /// Use Start.
  SyncHistory(Context& ctx, kube::Client& client, util::Logger& log) : ctx_(ctx), store_(client), log_(log) {}

 private:
  Context& ctx_;
  state::HistoryStore store_;
  util::Logger& log_;
  state::Revision revision_;
};

}  // namespace tazuna::cli
