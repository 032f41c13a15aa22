#include "util/label_selector.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>

#include "util/strings.hpp"

namespace tazuna::util {

namespace {

enum class Tok { kEnd, kIdent, kComma, kEquals, kDoubleEquals, kNotEquals, kBang, kOpen, kClose, kGreater, kLess };

struct Token {
  Tok type = Tok::kEnd;
  std::string text;
};

bool Special(char c) {
  return c == '!' || c == ',' || c == '=' || c == '>' || c == '<' || c == '(' || c == ')';
}
bool Space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool Alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// apimachinery's selector lexer: the special characters, two-character `==` and `!=`, and identifiers (any
// run of other characters; `in` and `notin` are keywords only where an operator is expected).
std::vector<Token> Lex(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (Space(c)) {
      ++i;
      continue;
    }
    if (!Special(c)) {
      size_t j = i;
      while (j < s.size() && !Special(s[j]) && !Space(s[j])) ++j;
      out.push_back({Tok::kIdent, std::string(s.substr(i, j - i))});
      i = j;
      continue;
    }
    const bool two = i + 1 < s.size() && s[i + 1] == '=';
    if (c == '=' && two) out.push_back({Tok::kDoubleEquals, "=="});
    else if (c == '!' && two) out.push_back({Tok::kNotEquals, "!="});
    else if (c == '=') out.push_back({Tok::kEquals, "="});
    else if (c == '!') out.push_back({Tok::kBang, "!"});
    else if (c == ',') out.push_back({Tok::kComma, ","});
    else if (c == '(') out.push_back({Tok::kOpen, "("});
    else if (c == ')') out.push_back({Tok::kClose, ")"});
    else if (c == '>') out.push_back({Tok::kGreater, ">"});
    else out.push_back({Tok::kLess, "<"});
    i += (c == '=' || c == '!') && two ? 2 : 1;
  }
  out.push_back({Tok::kEnd, ""});
  return out;
}

// A label value, and the name part of a key: at most 63 characters, alphanumeric at both ends, `-_.` inside.
bool ValidName(std::string_view v) {
  if (v.size() > 63) return false;
  if (v.empty()) return true;
  if (!Alnum(v.front()) || !Alnum(v.back())) return false;
  return std::all_of(v.begin(), v.end(), [](char c) { return Alnum(c) || c == '-' || c == '_' || c == '.'; });
}

// A DNS-1123 subdomain: the prefix of a qualified key.
bool ValidPrefix(std::string_view p) {
  if (p.empty() || p.size() > 253) return false;
  if (!std::isalnum(static_cast<unsigned char>(p.front())) || !std::isalnum(static_cast<unsigned char>(p.back()))) {
    return false;
  }
  return std::all_of(p.begin(), p.end(), [](char c) {
    return (std::islower(static_cast<unsigned char>(c)) != 0) || (std::isdigit(static_cast<unsigned char>(c)) != 0) ||
           c == '-' || c == '.';
  });
}

std::optional<std::string> KeyProblem(std::string_view key) {
  const size_t slash = key.find('/');
  const std::string_view name = slash == std::string_view::npos ? key : key.substr(slash + 1);
  if (slash != std::string_view::npos && !ValidPrefix(key.substr(0, slash))) {
    return StrCat("invalid label key ", Quote(key), ": its prefix must be a DNS subdomain");
  }
  if (name.empty() || !ValidName(name)) {
    return StrCat("invalid label key ", Quote(key),
                  ": a name of at most 63 characters, alphanumeric at both ends, '-', '_' or '.' inside");
  }
  return std::nullopt;
}

std::optional<int64_t> ToInt(std::string_view s) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<LabelSelector> Parse() {
    LabelSelector sel;
    if (Peek().type == Tok::kEnd) return sel;
    while (true) {
      auto r = Requirement();
      if (!r) return r.error();
      sel.requirements.push_back(std::move(*r));
      const Token t = Next();
      if (t.type == Tok::kEnd) return sel;
      if (t.type != Tok::kComma) return Problem(StrCat("found ", Quote(t.text), ", expected ','"));
    }
  }

 private:
  const Token& Peek() const { return tokens_[pos_]; }
  Token Next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  static Error Problem(std::string why) { return MakeError(ErrorKind::kUsage, std::move(why)); }

  Result<SelectorRequirement> Requirement() {
    SelectorRequirement r;
    const bool negated = Peek().type == Tok::kBang;
    if (negated) Next();
    const Token key = Next();
    if (key.type != Tok::kIdent) {
      return Problem(key.type == Tok::kEnd ? "expected a label key" : StrCat("found ", Quote(key.text), ", expected a label key"));
    }
    if (auto problem = KeyProblem(key.text)) return Problem(*problem);
    r.key = key.text;
    const Tok after = Peek().type;
    if (negated || after == Tok::kComma || after == Tok::kEnd) {
      r.op = negated ? SelectorOp::kDoesNotExist : SelectorOp::kExists;
      return r;
    }
    const Token op = Next();
    if (op.type == Tok::kIdent && (op.text == "in" || op.text == "notin")) {
      r.op = op.text == "in" ? SelectorOp::kIn : SelectorOp::kNotIn;
      return ValueSet(std::move(r));
    }
    switch (op.type) {
      case Tok::kEquals: case Tok::kDoubleEquals: r.op = SelectorOp::kEquals; break;
      case Tok::kNotEquals: r.op = SelectorOp::kNotEquals; break;
      case Tok::kGreater: r.op = SelectorOp::kGreaterThan; break;
      case Tok::kLess: r.op = SelectorOp::kLessThan; break;
      default:
        return Problem(StrCat("found ", Quote(op.text), ", expected an operator (=, ==, !=, in, notin, >, <) after ",
                              Quote(r.key)));
    }
    return SingleValue(std::move(r));
  }

  // `=`, `==`, `!=`: one value, possibly empty (`a=`); `>`, `<`: one integer.
  Result<SelectorRequirement> SingleValue(SelectorRequirement r) {
    std::string value;
    if (Peek().type == Tok::kIdent) value = Next().text;
    else if (Peek().type != Tok::kComma && Peek().type != Tok::kEnd) {
      return Problem(StrCat("found ", Quote(Peek().text), ", expected a value for ", Quote(r.key)));
    }
    if (r.op == SelectorOp::kGreaterThan || r.op == SelectorOp::kLessThan) {
      if (!ToInt(value)) return Problem(StrCat("for '>' and '<' the value must be an integer, not ", Quote(value)));
    } else if (!ValidName(value)) {
      return Problem(StrCat("invalid label value ", Quote(value),
                            ": at most 63 characters, alphanumeric at both ends, '-', '_' or '.' inside"));
    }
    r.values.push_back(std::move(value));
    return r;
  }

  // `in (x,y)`, `notin (x)`: a parenthesised list of one or more values.
  Result<SelectorRequirement> ValueSet(SelectorRequirement r) {
    if (Next().type != Tok::kOpen) return Problem(StrCat("expected '(' after ", Quote(r.key), " in/notin"));
    while (true) {
      std::string value;
      if (Peek().type == Tok::kIdent) value = Next().text;
      if (!ValidName(value)) return Problem(StrCat("invalid label value ", Quote(value), " in the set of ", Quote(r.key)));
      r.values.push_back(std::move(value));
      const Token t = Next();
      if (t.type == Tok::kClose) break;
      if (t.type != Tok::kComma) {
        return Problem(t.type == Tok::kEnd ? "missing ')'" : StrCat("found ", Quote(t.text), ", expected ',' or ')'"));
      }
    }
    std::sort(r.values.begin(), r.values.end());
    r.values.erase(std::unique(r.values.begin(), r.values.end()), r.values.end());
    return r;
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

bool Holds(const SelectorRequirement& r, const std::map<std::string, std::string>& labels) {
  const auto it = labels.find(r.key);
  const bool has = it != labels.end();
  const auto in_values = [&] { return has && std::find(r.values.begin(), r.values.end(), it->second) != r.values.end(); };
  switch (r.op) {
    case SelectorOp::kEquals: case SelectorOp::kIn: return in_values();
    case SelectorOp::kNotEquals: case SelectorOp::kNotIn: return !in_values();
    case SelectorOp::kExists: return has;
    case SelectorOp::kDoesNotExist: return !has;
    case SelectorOp::kGreaterThan: case SelectorOp::kLessThan: {
      const auto have = has ? ToInt(it->second) : std::nullopt;
      const auto want = ToInt(r.values.front());
      if (!have || !want) return false;
      return r.op == SelectorOp::kGreaterThan ? *have > *want : *have < *want;
    }
  }
  return false;
}

}  // namespace

bool LabelSelector::Matches(const std::map<std::string, std::string>& labels) const {
  return std::all_of(requirements.begin(), requirements.end(),
                     [&](const SelectorRequirement& r) { return Holds(r, labels); });
}

Result<LabelSelector> ParseLabelSelector(std::string_view text) {
  auto parsed = Parser(Lex(text)).Parse();
  if (!parsed) {
    return MakeError(ErrorKind::kUsage, StrCat("invalid label selector ", Quote(text), ": ", parsed.error().message));
  }
  return parsed;
}

}  // namespace tazuna::util
