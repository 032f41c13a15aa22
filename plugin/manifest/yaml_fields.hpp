#pragma once

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "util/result.hpp"

namespace tazuna::manifest {

/// A 1-based position in a source file; line 0 means unknown.
struct Mark {
  int line = 0;
  int col = 0;
  bool operator==(const Mark&) const = default;
};

/// The position of a yaml-cpp node (unknown for undefined nodes).
Mark MarkOf(const YAML::Node& node);

/// `parent.key` (or `key` when parent is empty).
std::string ChildField(std::string_view parent, std::string_view key);
/// `parent[index]`.
std::string IndexField(std::string_view parent, size_t index);

/// Typed, position-aware access to the yaml-cpp tree of one file (tazuna.yaml or an include).
/// Every error is kInput `<file>:<line>:<col>: <field>: <message>`. No yaml-cpp exception escapes.
class NodeReader {
 public:
  explicit NodeReader(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  /// The error for `field` at `mark`.
  util::Error ErrorAt(Mark mark, std::string_view field, std::string_view message) const;

  /// Parses one YAML document (an empty document is a null node).
  util::Result<YAML::Node> Parse(const std::string& text) const;

  /// Checks `node` is a mapping without repeated keys whose keys are all in `allowed`.
  util::Status CheckMap(const YAML::Node& node, std::string_view field,
                        std::initializer_list<std::string_view> allowed) const;
  /// Checks `node` is a mapping with scalar keys and no repeated key (any key allowed).
  util::Status CheckAnyMap(const YAML::Node& node, std::string_view field) const;

  /// The value under `key`, or nullopt when absent. `map` must have passed a Check*Map.
  static std::optional<YAML::Node> Find(const YAML::Node& map, std::string_view key);

  /// A scalar string field; absent or null gives "".
  util::Result<std::string> String(const YAML::Node& map, std::string_view key, std::string_view field) const;
  /// A YAML 1.1 boolean field (true/false/yes/no/on/off/y/n); absent or null gives false.
  util::Result<bool> Bool(const YAML::Node& map, std::string_view key, std::string_view field) const;
  /// A sequence of scalar strings; absent or null gives {}.
  util::Result<std::vector<std::string>> StringList(const YAML::Node& map, std::string_view key,
                                                    std::string_view field) const;
  /// A mapping of scalar strings; absent or null gives {}.
  util::Result<std::map<std::string, std::string>> StringMap(const YAML::Node& map, std::string_view key,
                                                             std::string_view field) const;
  /// A sequence node (absent or null gives an empty, undefined-free sequence node).
  util::Result<YAML::Node> Sequence(const YAML::Node& map, std::string_view key, std::string_view field) const;
  /// For a key kubectl tazuna accepts but does not act on: `<file>:<line>:<col>: <field>.<key> <why>`
  /// (the key's position), or nullopt when `key` is absent or set to nothing (null, [] or {}).
  std::optional<std::string> IgnoredKey(const YAML::Node& map, std::string_view key, std::string_view field,
                                        std::string_view why) const;
  /// A scalar node's text (must be a scalar).
  util::Result<std::string> Scalar(const YAML::Node& node, std::string_view field) const;

 private:
  std::string file_;
};

}  // namespace tazuna::manifest
