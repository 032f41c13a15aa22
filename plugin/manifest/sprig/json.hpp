#pragma once

// JSON and YAML as the Go tool's toJson, fromJson, toYaml and fromYaml and sprig's JSON functions give
// them (encoding/json, sigs.k8s.io/yaml).

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "manifest/sprig/values.hpp"

namespace tazuna::manifest::sprig {

/// A JSON value as json.Unmarshal into interface{} gives it: every number a float64.
GoValue FromJsonValue(const nlohmann::json& v);
/// json.Indent(dst, compact, "", "  ") over compact JSON text.
std::string IndentJson(const std::string& compact);
/// What an Encoder with SetEscapeHTML(false) writes: <, > and & as they are.
std::string UnescapeHtml(const std::string& text);
/// json.Marshal(v); nullopt for what it refuses (complex, NaN, infinities).
std::optional<std::string> MarshalJson(const GoValue& v);
/// The Go tool's toYaml: sigs.k8s.io/yaml.Marshal without the final newline, "" on error.
std::string ToYaml(const GoValue& v);
/// The Go tool's fromYaml: a map, or a map holding Error.
GoValue FromYaml(const std::string& text);
/// The JSON text parsed; nullopt if it is not JSON.
std::optional<nlohmann::json> ParseJson(const std::string& text);

}  // namespace tazuna::manifest::sprig
