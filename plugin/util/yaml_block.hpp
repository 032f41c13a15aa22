#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tazuna::util {

/// A fast reader for the block-style YAML that generators write (controller-gen CRDs, `helm template`,
/// `kustomize build`, most hand-written manifests): block mappings and sequences, single-line plain and
/// quoted scalars, literal block scalars (`|`, `|-`), empty flow collections, comments and `---`.
/// It reads a stream about ten times faster than yaml-cpp, which is most of the cost of rendering a
/// bundle of large CRDs.
///
/// Anything outside that subset (anchors, aliases, tags, folded or keep-chomped block scalars, multi-line
/// plain or quoted scalars, non-empty flow collections, non-string or duplicate keys, merge keys, tabs,
/// CR, a BOM, empty documents, more than `max_nodes` nodes) gives nullopt, and the caller reads the
/// stream with yaml-cpp (ParseYamlStream does). Where it gives a value, that value equals what
/// ParseYamlStream's yaml-cpp path gives for the same text: held by a unit test over tricky cases, by the
/// `yaml_block` fuzz target, and by tests/compat/yaml_block_sweep.sh over every YAML file of the Go
/// module cache. The text must have passed ValidateYamlText.
/// `left_at`, when given, is set to the 1-based line where the reader gave up (0 if it did not).
std::optional<std::vector<nlohmann::json>> ParseBlockYamlStream(std::string_view text, size_t max_nodes,
                                                                size_t* left_at = nullptr);

}  // namespace tazuna::util
