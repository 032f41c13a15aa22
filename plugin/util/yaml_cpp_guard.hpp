#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <yaml-cpp/node/node.h>

namespace tazuna::util {

/// A 0-based position in YAML text, as yaml-cpp's Mark counts.
struct YamlPosition {
  int line = 0;
  int column = 0;
  bool operator==(const YamlPosition&) const = default;
};

/// What to report at FindEndlessDocuments' position.
inline constexpr char kEndlessDocumentsMessage[] = "unexpected ',' outside a flow collection";

/// yaml-cpp 0.7's YAML::LoadAll never returns when a ',' stands outside any flow collection at
/// document level (`[a]\n, b`, `- a\n,`, `"a", b`): it yields empty documents forever and allocates
/// without bound. Finds such a ',' with one parse that builds no nodes; nullopt when LoadAll will return.
/// Never throws: a syntax error is left for LoadAll to report.
std::optional<YamlPosition> FindEndlessDocuments(const std::string& text);

/// What to report at a key for which LacksValueIndicator holds (goyaml.v2's words).
inline constexpr char kMissingColonMessage[] = "could not find expected ':'";

/// True when `key` and `value`, a pair of the mapping `map`, were written without the ':' between them:
/// a plain scalar alone on its line in a block mapping (`a: 1\nb`), which is what the content of a block
/// scalar indented no deeper than its key is (`  k: |\n  x`: `|` is empty and `x` stands alone).
/// yaml-cpp 0.7 reads such a scalar as a key with a null value; goyaml.v2 fails with kMissingColonMessage.
/// Report it at `key`.
bool LacksValueIndicator(const YAML::Node& map, const YAML::Node& key, const YAML::Node& value);

/// For a folded block scalar with keep chomping (`>+`) whose header starts at text[pos], inside a block
/// collection at column `parent_column` (-1: none), the number of line breaks its value ends with: the
/// last content line's and one per empty line after it, or, with no content, one per empty line. nullopt
/// if it is not such a scalar. yaml-cpp 0.7 folds one of those line breaks away; YAML keeps them all.
std::optional<size_t> FoldedKeepBreaks(std::string_view text, size_t pos, int parent_column);

/// A yaml-cpp exception message in our words: its nesting limit (yaml-cpp 0.7 reports it as "bad file")
/// becomes "nesting too deep (more than 2000 levels)", and control characters it quotes raw (`unknown
/// escape character: <newline>`) are escaped, so the message stays one line.
std::string YamlCppMessage(const std::string& message);

}  // namespace tazuna::util
