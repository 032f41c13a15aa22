#pragma once

#include <map>
#include <string>
#include <vector>

#include "cli/context.hpp"
#include "kube/client.hpp"
#include "manifest/model.hpp"
#include "state/diff/diff.hpp"
#include "state/apply/takeover_apply.hpp"

namespace tazuna::cli {

/// `state diff --show-changes` (and `state drift --show-changes`): for every entry but removed ones, the live
/// object against the server-side dry-run result of applying the rendered one (without the fields `yields`,
/// each manifest's yieldFields, and the defaults leave to the writers that own them now), less the fields the sync's
/// take-over of earlier tools' fields removes (state::PreviewTakeover; a removal the server cannot
/// check is a warning), managedFields dropped, Secret values masked as kubectl diff does; written to
/// LIVE/ and MERGED/ temp directories and compared with `diff -u -N` or $KUBECTL_EXTERNAL_DIFF; its
/// output goes to ctx.out. `takeover.dry_run` is not used. `origin_mark`: the origin annotation the sync
/// writes (state::Origin::Mark), so that an unchanged mark does not show as removed.
util::Status ShowChanges(Context& ctx, const state::TakeoverContext& takeover,
                         const std::vector<state::DiffEntry>& entries,
                         const std::vector<state::DesiredManifest>& desired, const std::string& origin_mark,
                         const std::map<std::string, std::vector<manifest::YieldRule>>& yields);

}  // namespace tazuna::cli
