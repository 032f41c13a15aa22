#pragma once

// The string functions of Go's strings package and of goutils that sprig's string functions call, on
// Go strings (bytes, UTF-8 where Go decodes it).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/result.hpp"

namespace tazuna::manifest::sprig {

/// strings.TrimSpace (Unicode white space).
std::string TrimSpace(const std::string& s);
/// strings.Trim(s, cutset).
std::string TrimCutset(const std::string& s, const std::string& cutset);
/// Go's case mapping for ASCII letters; other runes are left as they are.
char32_t AsciiUpper(char32_t r);
char32_t AsciiLower(char32_t r);
/// `f` applied to each ASCII byte of `s`; other bytes are kept.
std::string MapRunes(const std::string& s, char32_t (*f)(char32_t));
/// strings.Title: the first letter of each word (after strings.Title's separators) as AsciiUpper maps it.
std::string Title(const std::string& s);
/// goutils.Uncapitalize: the first letter of each whitespace-separated word lowered.
std::string Untitle(const std::string& s);
/// goutils.DeleteWhiteSpace: byte by byte, each kept byte written as the rune of that value.
std::string DeleteWhiteSpace(const std::string& s);
/// goutils.AbbreviateFull; nullopt for its errors.
std::optional<std::string> AbbreviateFull(const std::string& str, int64_t offset, int64_t max_width);
/// strings.Split(s, sep) (n < 0) and SplitN.
std::vector<std::string> GoSplit(const std::string& s, const std::string& sep, int64_t n);
/// strings.Replace(s, old, new, -1).
std::string ReplaceAll(const std::string& s, const std::string& from, const std::string& to);
/// strings.Repeat; kInput with Go's panic message for a negative count or an output over 1 GiB.
util::Result<std::string> Repeat(const std::string& s, int64_t count);
/// sprig's indent: `spaces` spaces before every line of `v`; fails as Repeat.
util::Result<std::string> Indent(int64_t spaces, const std::string& v);

}  // namespace tazuna::manifest::sprig
