#pragma once

#include <string>
#include <vector>

#include "manifest/model.hpp"
#include "util/result.hpp"

namespace tazuna::manifest {

/// Keeps the manifests named in `names` (empty: all) that carry any of `tags` (empty: any; items may
/// be comma-separated lists), in declaration order. An unknown name is kUsage listing the valid ones.
/// Pointers point into `file`.
util::Result<std::vector<const Manifest*>> SelectManifests(const TazunaFile& file,
                                                           const std::vector<std::string>& names,
                                                           const std::vector<std::string>& tags);

/// The tags of `tags` (items may be comma-separated lists) that no manifest of `file` carries, sorted.
std::vector<std::string> UnknownTags(const TazunaFile& file, const std::vector<std::string>& tags);

/// Checks the kubeconfig context against context_matches (each a full-match regular expression; mode
/// or/and). With an environment selected in `file` that is declared in spec.environments, its rules
/// replace the root ones (an empty mode falls back to the root mode). No patterns: always OK.
/// Error kInput naming the context and the patterns.
util::Status CheckContext(const TazunaFile& file, const std::string& current_context);

/// Groups `selected` into layers to run one after another. Without any dependsOn, every manifest is
/// its own layer, in order. Otherwise Kahn's algorithm, each layer in declaration (vector) order;
/// dependencies on manifests outside `selected` are ignored.
std::vector<std::vector<const Manifest*>> DependencyLayers(const std::vector<const Manifest*>& selected);

/// The layers a sync runs, as indices into `selected`: without any dependsOn every manifest is
/// independent, so all form one layer (synced concurrently); otherwise DependencyLayers.
std::vector<std::vector<size_t>> SyncLayers(const std::vector<const Manifest*>& selected);

}  // namespace tazuna::manifest
