#pragma once

#include <string_view>

namespace tazuna::util {

/// goyaml.v2's parseTimestamp (what kubectl -o yaml asks before writing a string plain): YYYY- and then
/// one of the layouts "2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00",
/// "2006-1-2 15:4:5.999999999" or "2006-1-2", as Go's time.Parse reads them (1-2 digit fields in range,
/// the day within its month, optional fraction after '.' or ',', zone Z or +hh:mm).
bool IsGoYamlTimestamp(std::string_view s);

/// goyaml.v2's isBase60Float: ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$ (YAML 1.1 sexagesimal;
/// written quoted, read back as a string).
bool IsGoYamlBase60Float(std::string_view s);

}  // namespace tazuna::util
