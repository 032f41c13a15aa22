#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cli/context.hpp"
#include "cli/flags.hpp"
#include "cli/options.hpp"
#include "state/store/desired.hpp"
#include "state/store/identity.hpp"
#include "util/label_selector.hpp"

namespace tazuna::cli {

/// `-l/--selector`: kubectl's label selector over the labels of the rendered objects.
void AddSelectorFlag(FlagSet& flags, std::string& selector);

/// The labels of rendered objects (metadata.labels), by manifest and where the object is applied.
class RenderedLabels {
 public:
  /// Learns the labels of every object of `manifest` (one answered from its state holds none: render it).
  void Add(const state::DesiredManifest& manifest);
  /// Whether the object `id` of `manifest`, as rendered, matches `selector`. An object not rendered (a removed
  /// row, a state no manifest of tazuna.yaml renders) is matched as an object without labels, as kubectl
  /// matches one (`!a` and `a!=b` hold, `a=b` does not).
  bool Matches(const util::LabelSelector& selector, const std::string& manifest, const state::ObjectIdentity& id) const;

 private:
  std::map<std::pair<std::string, state::ObjectIdentity>, std::map<std::string, std::string>> labels_;
};

/// For the commands whose rows are recorded objects (state list, state status): renders those of `names` that
/// tazuna.yaml (`file`, its -e; every manifest of it, -m aside) has, for their labels. Errors: the file does
/// not load (-l needs it), or a render fails.
util::Result<RenderedLabels> RenderLabels(Context& ctx, const FileOptions& file, const std::vector<std::string>& names,
                                          kube::Client& client, util::Logger& log);

}  // namespace tazuna::cli
