#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tazuna::cli::print {

/// Wraps items as {"apiVersion":"v1","kind":"List","items":[...]} and prints it as JSON
/// (4-space indent, sorted keys) for "json", or as YAML (types unambiguous) for "yaml".
void PrintList(std::ostream& out, std::vector<nlohmann::json> items, const std::string& format);

/// Prints one object as JSON (4-space indent) or YAML.
void PrintObject(std::ostream& out, const nlohmann::json& object, const std::string& format);

}  // namespace tazuna::cli::print
