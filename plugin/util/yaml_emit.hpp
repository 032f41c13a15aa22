#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace tazuna::util {

/// Renders `value` as block-style YAML the way `kubectl -o yaml` looks: keys sorted, 2-space
/// indent, sequences under a key not indented (`key:\n- a`), `{}` and `[]` for empty
/// containers, numbers as their JSON text. Strings are plain when a YAML 1.1 reader
/// (ParseYamlDocument, sigs.k8s.io/yaml) reads them back unchanged, multi-line strings use a
/// `|` literal block when that is exact, and otherwise strings are quoted (double quotes with
/// escapes for type-changing or unprintable text, single quotes for syntax characters).
/// Guarantees ParseYamlDocument(EmitYaml(v)) == v for finite numbers. Ends with a newline.
std::string EmitYaml(const nlohmann::json& value);

}  // namespace tazuna::util
