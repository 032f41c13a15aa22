#pragma once

#include <string>
#include <string_view>

#include "util/error.hpp"

namespace tazuna::manifest::gotemplate {

/// The text being parsed or executed and the file it came from, for error positions.
struct Source {
  std::string_view text;
  std::string file;
};

/// kInput `<file>:<line>:<col>: template: <message>` for the byte offset `pos` of `source.text`.
util::Error TemplateError(const Source& source, size_t pos, const std::string& message);

}  // namespace tazuna::manifest::gotemplate
