#include "cli/sync_history.hpp"

#include "cli/build_info.hpp"
#include "cli/pipeline.hpp"
#include "util/strings.hpp"
#include "util/ulid.hpp"

namespace tazuna::cli {

util::Result<std::unique_ptr<SyncHistory>> SyncHistory::Start(Context& ctx, kube::Client& client, util::Logger& log,
                                                               const RevisionStart& start) {
  auto h = std::make_unique<SyncHistory>(ctx, client, log);
  util::UlidGenerator ids(ctx.clock, util::NewRandomSource());
  state::Revision& r = h->revision_;
  r.id = ids.Next();
  r.started_at = util::FormatRfc3339Micro(ctx.clock.Now());
  r.user = state::WhoAmI(client);
  r.git_commit = start.git_commit;
  r.git_dirty = !r.git_commit.empty() && GitDirty(ctx, start.dir);
  r.version = std::string(BuildVersion());
  r.selection = start.selection;
  r.manifests = start.manifests;
  r.plan_digest = start.plan_digest;
  r.lock_holder = start.lock_holder;
  r.origin = start.origin;
  if (auto st = h->store_.Create(r); !st) {  // a create whose answer was lost may have made the record: part-way
    return st.error().MayHaveLanded() ? st.error().PartWay() : st.error();
  }
  log.Log(2, "recording revision " + r.id);
  if (auto trimmed = h->store_.Trim(start.history_limit, r.id, r.origin); !trimmed) {
    log.Warning("could not trim the sync history: " + trimmed.error().message);
  }
  return h;
}

void SyncHistory::Finish(const util::Result<state::SyncReport>& report, const std::vector<state::SyncInput>& inputs,
                         const util::Status& after) {
  const bool ok = report && report->failed == 0 && report->refused == 0 && after;
  if (report) state::RecordOutcome(revision_, *report, inputs);
  revision_.status = ok ? state::RevisionStatus::kSucceeded : state::RevisionStatus::kFailed;
  revision_.finished_at = util::FormatRfc3339Micro(ctx_.clock.Now());
  if (revision_.objects_omitted > 0) {
    log_.Warning(util::StrCat("revision ", revision_.id, " records counts only: ", revision_.objects_omitted,
                              " changed objects are too many to list"));
  }
  if (auto st = store_.Update(revision_); !st) log_.Warning("could not finish revision " + revision_.id + ": " + st.error().message);
}

}  // namespace tazuna::cli
