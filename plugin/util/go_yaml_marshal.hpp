#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace tazuna::util {

/// sigs.k8s.io/yaml.Marshal of a value whose encoding/json form is `value`, byte for byte: goyaml.v2's
/// emitter (keys in its natural order, plain scalars folded past column 80, literal blocks for multi-line
/// strings, floats in 'g' form), ending in a newline. Does not fail: where Go's Marshal would fail because
/// goyaml.v2 cannot read the JSON text back, callers check ValidateYamlText(GoJsonMarshal(value)) first.
std::string GoYamlMarshal(const nlohmann::json& value);

}  // namespace tazuna::util
