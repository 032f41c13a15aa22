#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tazuna::util {

/// Go's strconv, for the text/template and fmt twins: the functions behave as their Go namesakes.

/// Which quoting Go function: Quote (printable runes as they are) or QuoteToASCII (\u escapes).
enum class QuoteMode { kUnicode, kAscii };

/// strconv.Quote / QuoteToASCII: `"..."` with Go escapes; invalid UTF-8 bytes as \xNN.
std::string GoQuote(std::string_view text, QuoteMode mode);
/// strconv.QuoteRune / QuoteRuneToASCII: `'x'`; a value that is not a valid rune quotes U+FFFD.
std::string GoQuoteRune(uint64_t rune, QuoteMode mode);
/// strconv.CanBackquote: no control characters but tab, no backquote, valid UTF-8, no U+FEFF.
bool GoCanBackquote(std::string_view text);

/// One character unquoted by strconv.UnquoteChar.
struct UnquotedChar {
  char32_t value = 0;
  bool multibyte = false;  ///< value is a rune to encode as UTF-8 (else a single byte)
  std::string_view tail;
};
/// strconv.UnquoteChar(s, quote); nullopt for ErrSyntax.
std::optional<UnquotedChar> GoUnquoteChar(std::string_view s, char quote);
/// strconv.Unquote for "...", `...` and '...'; nullopt for ErrSyntax.
std::optional<std::string> GoUnquote(std::string_view s);

/// strconv.ParseInt(s, 0, 64) and ParseUint(s, 0, 64); nullopt on a syntax or range error.
std::optional<int64_t> GoParseInt(std::string_view s);
std::optional<uint64_t> GoParseUint(std::string_view s);
/// strconv.ParseFloat(s, 64): decimal and hexadecimal (0x...p...) forms with Go's underscores;
/// nullopt on a syntax error or an overflow to infinity.
std::optional<double> GoParseFloat(std::string_view s);

/// strconv.FormatFloat(f, fmt, prec, 64) for fmt in b e E f g G x X (prec -1: shortest).
std::string GoFormatFloat(double f, char fmt, int prec);

}  // namespace tazuna::util
