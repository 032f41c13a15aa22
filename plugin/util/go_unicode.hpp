#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tazuna::util {

/// Go's utf8.RuneError (U+FFFD).
inline constexpr char32_t kRuneError = 0xFFFD;

/// One rune decoded as Go's utf8.DecodeRuneInString does: an empty input gives {kRuneError, 0}; an
/// invalid, overlong or surrogate encoding gives {kRuneError, 1}.
struct DecodedRune {
  char32_t rune = kRuneError;
  size_t width = 0;
};
DecodedRune DecodeRune(std::string_view text);
/// Appends the UTF-8 encoding of `r` (kRuneError for a surrogate or a value past U+10FFFF), as
/// Go's utf8.AppendRune.
void AppendRune(std::string& out, char32_t r);
/// Number of runes as Go's utf8.RuneCountInString counts them (each invalid byte is one).
size_t RuneCount(std::string_view text);
/// The runes of `text` as Go's []rune(text) gives them (each invalid byte is one kRuneError).
std::vector<char32_t> Runes(std::string_view text);
/// Go's unicode.IsPrint, unicode.IsLetter and unicode.IsDigit (tables generated from the Go
/// toolchain by tests/compat/gounicode).
bool IsGoPrint(char32_t r);
bool IsGoLetter(char32_t r);
bool IsGoDigit(char32_t r);
/// Go's unicode.IsSpace (what strings.TrimSpace trims).
bool IsGoSpace(char32_t r);

}  // namespace tazuna::util
