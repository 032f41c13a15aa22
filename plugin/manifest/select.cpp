#include "manifest/select.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

std::set<std::string> SplitTags(const std::vector<std::string>& tags) {
  std::set<std::string> out;
  for (const std::string& item : tags) {
    for (const std::string& part : util::Split(item, ',')) {
      const std::string_view t = util::Trim(part);
      if (!t.empty()) out.insert(std::string(t));
    }
  }
  return out;
}

bool HasAnyTag(const Manifest& m, const std::set<std::string>& tags) {
  return std::any_of(m.tags.begin(), m.tags.end(), [&](const std::string& t) { return tags.count(t) > 0; });
}

// Patterns were compiled once by the loader, so regex_error cannot happen here; the catch keeps the
// no-exceptions rule if a file was built by hand.
bool FullMatch(const std::string& pattern, const std::string& text) {
  std::string body = pattern;
  auto flags = std::regex::ECMAScript;
  if (util::StartsWith(body, "(?i)")) {
    body = body.substr(4);
    flags |= std::regex::icase;
  }
  try {
    return std::regex_match(text, std::regex(body, flags));
  } catch (const std::regex_error&) {
    return false;
  }
}

std::string QuoteAll(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  for (const std::string& i : items) quoted.push_back(util::Quote(i));
  return util::Join(quoted, ", ");
}

struct Graph {
  std::vector<size_t> pending;                  ///< unmet dependencies per manifest
  std::vector<std::vector<size_t>> dependents;  ///< who waits on each manifest
};

// Edges to manifests outside the selection (or to itself) are dropped: they are not run here.
Graph BuildGraph(const std::vector<const Manifest*>& selected) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < selected.size(); ++i) index[selected[i]->name] = i;
  Graph g{std::vector<size_t>(selected.size(), 0), std::vector<std::vector<size_t>>(selected.size())};
  for (size_t i = 0; i < selected.size(); ++i) {
    for (const std::string& dep : selected[i]->depends_on) {
      auto it = index.find(dep);
      if (it == index.end() || it->second == i) continue;
      ++g.pending[i];
      g.dependents[it->second].push_back(i);
    }
  }
  return g;
}

// Indexes with no unmet dependency, in declaration order. A cycle cannot pass the loader; if one is
// built by hand, everything left is returned as one last layer.
std::vector<size_t> ReadyNodes(const Graph& g, const std::vector<bool>& done) {
  std::vector<size_t> ready, left;
  for (size_t i = 0; i < done.size(); ++i) {
    if (done[i]) continue;
    left.push_back(i);
    if (g.pending[i] == 0) ready.push_back(i);
  }
  return ready.empty() ? left : ready;
}

}  // namespace

util::Result<std::vector<const Manifest*>> SelectManifests(const TazunaFile& file,
                                                           const std::vector<std::string>& names,
                                                           const std::vector<std::string>& tags) {
  std::vector<std::string> valid;
  for (const Manifest& m : file.manifests) valid.push_back(m.name);
  for (const std::string& name : names) {
    if (std::find(valid.begin(), valid.end(), name) != valid.end()) continue;
    return util::MakeError(util::ErrorKind::kUsage,
                           util::StrCat("unknown manifest ", util::Quote(name), " in ", file.path,
                                        " (valid: ", util::Join(valid, ", "), ")"));
  }
  const std::set<std::string> tag_set = SplitTags(tags);
  std::vector<const Manifest*> out;
  for (const Manifest& m : file.manifests) {
    if (!names.empty() && std::find(names.begin(), names.end(), m.name) == names.end()) continue;
    if (!tag_set.empty() && !HasAnyTag(m, tag_set)) continue;
    out.push_back(&m);
  }
  return out;
}

std::vector<std::string> UnknownTags(const TazunaFile& file, const std::vector<std::string>& tags) {
  std::set<std::string> known;
  for (const Manifest& m : file.manifests) known.insert(m.tags.begin(), m.tags.end());
  std::vector<std::string> out;
  for (const std::string& tag : SplitTags(tags)) {
    if (known.count(tag) == 0) out.push_back(tag);
  }
  return out;
}

util::Status CheckContext(const TazunaFile& file, const std::string& current_context) {
  std::vector<std::string> patterns = file.context_matches;
  std::string mode = file.context_match_mode.empty() ? "or" : file.context_match_mode;
  std::string source = "spec.context_matches";
  if (auto it = file.environments.find(file.environment); !file.environment.empty() && it != file.environments.end()) {
    patterns = it->second.context_matches;
    if (!it->second.context_match_mode.empty()) mode = it->second.context_match_mode;
    source = util::StrCat("spec.environments.", file.environment, ".context_matches");
  }
  if (patterns.empty()) return util::Ok();
  const bool all = mode == "and";
  bool ok = all;
  for (const std::string& p : patterns) {
    const bool matched = FullMatch(p, current_context);
    ok = all ? (ok && matched) : (ok || matched);
  }
  if (ok) return util::Ok();
  util::Error e = util::MakeError(
      util::ErrorKind::kInput,
      util::StrCat("current context ", util::Quote(current_context), " does not match ", source, " (",
                   all ? "all" : "any", " of ", QuoteAll(patterns), ") in ", file.path));
  e.hint = "switch context with --context or kubectl config use-context, or pick the environment with -e";
  return e;
}

std::vector<std::vector<const Manifest*>> DependencyLayers(const std::vector<const Manifest*>& selected) {
  std::vector<std::vector<const Manifest*>> layers;
  const bool any_deps =
      std::any_of(selected.begin(), selected.end(), [](const Manifest* m) { return !m->depends_on.empty(); });
  if (!any_deps) {
    for (const Manifest* m : selected) layers.push_back({m});
    return layers;
  }
  Graph graph = BuildGraph(selected);
  std::vector<bool> done(selected.size(), false);
  for (size_t remaining = selected.size(); remaining > 0;) {
    std::vector<size_t> ready = ReadyNodes(graph, done);
    std::vector<const Manifest*> layer;
    for (const size_t i : ready) {
      done[i] = true;
      --remaining;
      layer.push_back(selected[i]);
      for (const size_t d : graph.dependents[i]) --graph.pending[d];
    }
    layers.push_back(std::move(layer));
  }
  return layers;
}

// The Go tool runs independent manifests one after another; they have no order to keep, so tazuna
// runs them together.
std::vector<std::vector<size_t>> SyncLayers(const std::vector<const Manifest*>& selected) {
  std::vector<std::vector<size_t>> out;
  const bool any_deps =
      std::any_of(selected.begin(), selected.end(), [](const Manifest* m) { return !m->depends_on.empty(); });
  if (!any_deps) {
    out.emplace_back();
    for (size_t i = 0; i < selected.size(); ++i) out.back().push_back(i);
    return out;
  }
  for (const auto& layer : DependencyLayers(selected)) {
    out.emplace_back();
    for (const Manifest* m : layer) {
      const auto at = std::find(selected.begin(), selected.end(), m);
      out.back().push_back(static_cast<size_t>(at - selected.begin()));
    }
  }
  return out;
}

}  // namespace tazuna::manifest
