#pragma once

#include <string>

#include "manifest/gotemplate/lex.hpp"
#include "manifest/gotemplate/node.hpp"
#include "util/result.hpp"

namespace tazuna::manifest::gotemplate {

/// Go's parse.newNumber: a number, character or complex constant with all its readings. kInput with
/// Go's message when it has none (`illegal number syntax: "09x"`, `integer overflow: ...`).
util::Result<Number> NewNumber(const std::string& text, TokenType type);

}  // namespace tazuna::manifest::gotemplate
