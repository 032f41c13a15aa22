#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tazuna::cli::print {

/// Prints one object as JSON (4-space indent, sorted keys) for "json", or as YAML (types unambiguous)
/// for "yaml".
void PrintObject(std::ostream& out, const nlohmann::json& object, const std::string& format);

}  // namespace tazuna::cli::print
