#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tazuna::manifest::gotemplate {

/// Token kinds of Go's text/template lexer (text/template/parse/lex.go).
enum class TokenType {
  kError, kBool, kChar, kCharConstant, kComment, kComplex, kAssign, kDeclare, kEof, kField, kIdentifier,
  kLeftDelim, kLeftParen, kNumber, kPipe, kRawString, kRightDelim, kRightParen, kSpace, kString, kText,
  kVariable,
  // Keywords.
  kBlock, kBreak, kContinue, kDot, kDefine, kElse, kEnd, kIf, kNil, kRange, kTemplate, kWith,
};

/// One token: its kind, where it starts (byte offset) and its text (for kError: the message).
struct Token {
  TokenType type = TokenType::kEof;
  size_t pos = 0;
  std::string val;
};

/// Splits `text` into tokens as Go's lexer does with the default delimiters `{{` `}}`: trim markers
/// (`{{- ` and ` -}}`) remove the adjacent whitespace from the text tokens, comments are dropped, and
/// lexing stops at the first error, which is the last token (kError). Otherwise the last is kEof.
std::vector<Token> Lex(std::string_view text);

}  // namespace tazuna::manifest::gotemplate
