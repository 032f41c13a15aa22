#include "cli/fleet_contexts.hpp"

#include <fnmatch.h>

#include <algorithm>

#include "util/strings.hpp"

namespace tazuna::cli {

bool GlobMatches(const std::string& pattern, const std::string& name) {
  return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

namespace {

util::Error UsageError(const std::string& message) { return util::MakeError(util::ErrorKind::kUsage, message); }

std::string KnownList(const std::vector<std::string>& known) {
  std::string out;
  for (const auto& k : known) out += (out.empty() ? "" : ", ") + k;
  return out;
}

}  // namespace

util::Result<std::vector<std::string>> SelectContexts(const ContextSelection& selection,
                                                      const std::vector<std::string>& known) {
  if (selection.all && !selection.patterns.empty()) {
    return UsageError("--contexts and --all-contexts cannot be used together");
  }
  if (known.empty()) return UsageError("the kubeconfig has no contexts to run over");
  if (selection.all) return known;
  std::vector<std::string> chosen;
  for (const auto& pattern : selection.patterns) {
    if (pattern.empty()) return UsageError("--contexts: an empty pattern matches no context");
    bool matched = false;
    for (const auto& name : known) {
      if (!GlobMatches(pattern, name)) continue;
      matched = true;
      if (std::find(chosen.begin(), chosen.end(), name) == chosen.end()) chosen.push_back(name);
    }
    if (!matched) {
      auto e = UsageError(util::StrCat("--contexts: no context matches ", util::Quote(pattern)));
      e.hint = "The kubeconfig's contexts: " + KnownList(known) + ".";
      return e;
    }
  }
  return chosen;
}

}  // namespace tazuna::cli
