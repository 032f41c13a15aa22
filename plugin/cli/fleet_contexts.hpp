#pragma once

#include <string>
#include <vector>

#include "util/result.hpp"

namespace tazuna::cli {

/// Whether `name` matches the shell glob `pattern` (`*`, `?`, `[a-z]`, `[!x]`, `\` escapes), as fnmatch(3)
/// without flags: `*` matches any run of characters, `/` included.
bool GlobMatches(const std::string& pattern, const std::string& name);

/// Which contexts of a fleet run take part, in order.
struct ContextSelection {
  std::vector<std::string> patterns;  ///< --contexts, already split on commas
  bool all = false;                   ///< --all-contexts
};

/// The contexts of `known` (the kubeconfig's names) that `selection` picks: every pattern in the order
/// given, each pattern's matches in `known`'s order, no name twice; with `all`, `known` as it is.
/// kUsage errors: `--contexts: no context matches "x"` (naming the known contexts), an empty pattern,
/// `--contexts and --all-contexts` together, and no contexts at all in the kubeconfig.
util::Result<std::vector<std::string>> SelectContexts(const ContextSelection& selection,
                                                      const std::vector<std::string>& known);

}  // namespace tazuna::cli
