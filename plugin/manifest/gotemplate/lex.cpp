// Go's text/template lexer (text/template/parse/lex.go), rewritten as a loop over states.
#include "manifest/gotemplate/lex.hpp"

#include <map>

#include "util/go_fmt.hpp"
#include "util/go_unicode.hpp"

namespace tazuna::manifest::gotemplate {
namespace {

constexpr std::string_view kLeftDelim = "{{";
constexpr std::string_view kRightDelim = "}}";
constexpr std::string_view kLeftComment = "/*";
constexpr std::string_view kRightComment = "*/";
constexpr char32_t kEofRune = 0xFFFFFFFF;

bool IsSpace(char32_t r) { return r == ' ' || r == '\t' || r == '\r' || r == '\n'; }
bool IsAlphaNumeric(char32_t r) { return r == '_' || util::IsGoLetter(r) || util::IsGoDigit(r); }
bool HasLeftTrimMarker(std::string_view s) { return s.size() >= 2 && s[0] == '-' && IsSpace(static_cast<unsigned char>(s[1])); }
bool HasRightTrimMarker(std::string_view s) { return s.size() >= 2 && IsSpace(static_cast<unsigned char>(s[0])) && s[1] == '-'; }
bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

size_t TrailingSpaces(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && IsSpace(static_cast<unsigned char>(s[s.size() - 1 - n]))) ++n;
  return n;
}

size_t LeadingSpaces(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && IsSpace(static_cast<unsigned char>(s[n]))) ++n;
  return n;
}

// %#U of a rune, as Go's lexer names a bad one.
std::string RuneName(char32_t r) {
  return util::GoSprintf("%#U", {r == kEofRune ? util::GoValue::Int(-1) : util::GoValue::Int(r)});
}

TokenType Keyword(std::string_view word) {
  static const std::map<std::string_view, TokenType> kKeywords = {
      {".", TokenType::kDot},          {"block", TokenType::kBlock}, {"break", TokenType::kBreak},
      {"continue", TokenType::kContinue}, {"define", TokenType::kDefine}, {"else", TokenType::kElse},
      {"end", TokenType::kEnd},        {"if", TokenType::kIf},       {"range", TokenType::kRange},
      {"nil", TokenType::kNil},        {"template", TokenType::kTemplate}, {"with", TokenType::kWith}};
  const auto it = kKeywords.find(word);
  return it == kKeywords.end() ? TokenType::kError : it->second;
}

class Lexer {
 public:
  explicit Lexer(std::string_view input) : in_(input) {}
  std::vector<Token> Run();

 private:
  enum class State { kText, kLeftDelim, kComment, kRightDelim, kInsideAction, kDone };

  char32_t Next() {
    if (pos_ >= in_.size()) {
      width_ = 0;
      return kEofRune;
    }
    const util::DecodedRune d = util::DecodeRune(in_.substr(pos_));
    width_ = d.width;
    pos_ += d.width;
    return d.rune;
  }
  char32_t Peek() {
    const char32_t r = Next();
    Backup();
    return r;
  }
  void Backup() { pos_ -= width_; }
  void Emit(TokenType type) {
    tokens_.push_back({type, start_, std::string(in_.substr(start_, pos_ - start_))});
    start_ = pos_;
  }
  void Ignore() { start_ = pos_; }
  State Error(std::string message) {
    tokens_.push_back({TokenType::kError, start_, std::move(message)});
    return State::kDone;
  }
  bool AtTerminator();
  bool AtRightDelim(bool* trim);
  bool Accept(std::string_view valid) {
    if (valid.find(static_cast<char>(Next())) != std::string_view::npos && width_ == 1) return true;
    Backup();
    return false;
  }
  void AcceptRun(std::string_view valid) {
    while (Accept(valid)) {
    }
  }
  bool ScanNumber();

  State LexText();
  State LexLeftDelim();
  State LexComment();
  State LexRightDelim();
  State LexInsideAction();
  State LexSpace();
  State LexIdentifier();
  State LexFieldOrVariable(TokenType type);
  State LexQuote(char32_t quote, TokenType type, const char* unterminated);
  State LexRawQuote();
  State LexNumber();

  std::string_view in_;
  size_t pos_ = 0, start_ = 0, width_ = 0;
  int paren_depth_ = 0;
  std::vector<Token> tokens_;
};

bool Lexer::AtTerminator() {
  const char32_t r = Peek();
  if (IsSpace(r)) return true;
  switch (r) {
    case kEofRune: case '.': case ',': case '|': case ':': case ')': case '(': return true;
    default: break;
  }
  return StartsWith(in_.substr(pos_), kRightDelim);
}

bool Lexer::AtRightDelim(bool* trim) {
  const std::string_view rest = in_.substr(pos_);
  *trim = HasRightTrimMarker(rest) && StartsWith(rest.substr(2), kRightDelim);
  return *trim || StartsWith(rest, kRightDelim);
}

Lexer::State Lexer::LexText() {
  const size_t x = in_.find(kLeftDelim, pos_);
  if (x == std::string_view::npos) {
    pos_ = in_.size();
    if (pos_ > start_) Emit(TokenType::kText);
    Emit(TokenType::kEof);
    return State::kDone;
  }
  if (x > pos_) {
    pos_ = x;
    size_t trim = 0;
    if (HasLeftTrimMarker(in_.substr(pos_ + kLeftDelim.size()))) trim = TrailingSpaces(in_.substr(start_, pos_ - start_));
    pos_ -= trim;
    if (pos_ > start_) {
      tokens_.push_back({TokenType::kText, start_, std::string(in_.substr(start_, pos_ - start_))});
    }
    pos_ += trim;
    Ignore();
  }
  return State::kLeftDelim;
}

Lexer::State Lexer::LexLeftDelim() {
  pos_ += kLeftDelim.size();
  const size_t after_marker = HasLeftTrimMarker(in_.substr(pos_)) ? 2 : 0;  // "- "
  if (StartsWith(in_.substr(pos_ + after_marker), kLeftComment)) {
    pos_ += after_marker;
    Ignore();
    return State::kComment;
  }
  Emit(TokenType::kLeftDelim);
  pos_ += after_marker;
  Ignore();
  paren_depth_ = 0;
  return State::kInsideAction;
}

Lexer::State Lexer::LexComment() {
  pos_ += kLeftComment.size();
  const size_t x = in_.find(kRightComment, pos_);
  if (x == std::string_view::npos) return Error("unclosed comment");
  pos_ = x + kRightComment.size();
  bool trim = false;
  if (!AtRightDelim(&trim)) return Error("comment ends before closing delimiter");
  pos_ += (trim ? 2 : 0) + kRightDelim.size();
  if (trim) pos_ += LeadingSpaces(in_.substr(pos_));
  Ignore();
  return State::kText;
}

Lexer::State Lexer::LexRightDelim() {
  bool trim = false;
  AtRightDelim(&trim);
  if (trim) {
    pos_ += 2;
    Ignore();
  }
  pos_ += kRightDelim.size();
  Emit(TokenType::kRightDelim);
  if (trim) {
    pos_ += LeadingSpaces(in_.substr(pos_));
    Ignore();
  }
  return State::kText;
}

Lexer::State Lexer::LexSpace() {
  int spaces = 0;
  while (IsSpace(Peek())) {
    Next();
    ++spaces;
  }
  // A trim-marked right delimiter starts with a space: leave that space to it.
  const std::string_view rest = in_.substr(pos_ - 1);
  if (HasRightTrimMarker(rest) && StartsWith(rest.substr(2), kRightDelim)) {
    --pos_;
    if (spaces == 1) return State::kRightDelim;
  }
  Emit(TokenType::kSpace);
  return State::kInsideAction;
}

Lexer::State Lexer::LexIdentifier() {
  while (IsAlphaNumeric(Next())) {
  }
  Backup();
  const std::string_view word = in_.substr(start_, pos_ - start_);
  if (!AtTerminator()) {
    const char32_t r = Peek();
    return Error("bad character " + RuneName(r));
  }
  const TokenType key = Keyword(word);
  if (key != TokenType::kError && key != TokenType::kDot) {
    Emit(key);
  } else if (word == "true" || word == "false") {
    Emit(TokenType::kBool);
  } else {
    Emit(TokenType::kIdentifier);
  }
  return State::kInsideAction;
}

Lexer::State Lexer::LexFieldOrVariable(TokenType type) {
  if (AtTerminator()) {  // nothing interesting follows: "." or "$"
    Emit(type == TokenType::kVariable ? TokenType::kVariable : TokenType::kDot);
    return State::kInsideAction;
  }
  char32_t r = 0;
  while (IsAlphaNumeric(r = Next())) {
  }
  Backup();
  if (!AtTerminator()) return Error("bad character " + RuneName(r));
  Emit(type);
  return State::kInsideAction;
}

Lexer::State Lexer::LexQuote(char32_t quote, TokenType type, const char* unterminated) {
  for (;;) {
    char32_t r = Next();
    if (r == '\\') {
      r = Next();
      if (r != kEofRune && r != '\n') continue;
    }
    if (r == kEofRune || r == '\n') return Error(unterminated);
    if (r == quote) break;
  }
  Emit(type);
  return State::kInsideAction;
}

Lexer::State Lexer::LexRawQuote() {
  for (;;) {
    const char32_t r = Next();
    if (r == kEofRune) return Error("unterminated raw quoted string");
    if (r == '`') break;
  }
  Emit(TokenType::kRawString);
  return State::kInsideAction;
}

// Accepts more than Go syntax allows ("089", "0x0.2"); the parser's conversion rejects the rest.
bool Lexer::ScanNumber() {
  Accept("+-");
  std::string_view digits = "0123456789_";
  if (Accept("0")) {
    if (Accept("xX")) {
      digits = "0123456789abcdefABCDEF_";
    } else if (Accept("oO")) {
      digits = "01234567_";
    } else if (Accept("bB")) {
      digits = "01_";
    }
  }
  AcceptRun(digits);
  if (Accept(".")) AcceptRun(digits);
  if (digits.size() == 11 && Accept("eE")) {
    Accept("+-");
    AcceptRun("0123456789_");
  }
  if (digits.size() == 23 && Accept("pP")) {
    Accept("+-");
    AcceptRun("0123456789_");
  }
  Accept("i");
  if (IsAlphaNumeric(Peek())) {
    Next();
    return false;
  }
  return true;
}

Lexer::State Lexer::LexNumber() {
  if (!ScanNumber()) return Error("bad number syntax: " + std::string(in_.substr(start_, pos_ - start_)));
  const char32_t sign = Peek();
  if (sign == '+' || sign == '-') {  // complex: 1+2i, no spaces, must end in 'i'
    if (!ScanNumber() || in_[pos_ - 1] != 'i') {
      return Error("bad number syntax: " + std::string(in_.substr(start_, pos_ - start_)));
    }
    Emit(TokenType::kComplex);
    return State::kInsideAction;
  }
  Emit(TokenType::kNumber);
  return State::kInsideAction;
}

Lexer::State Lexer::LexInsideAction() {
  bool trim = false;
  if (AtRightDelim(&trim)) return paren_depth_ == 0 ? State::kRightDelim : Error("unclosed left paren");
  const char32_t r = Next();
  if (r == kEofRune) return Error("unclosed action");
  if (IsSpace(r)) {
    Backup();
    return LexSpace();
  }
  switch (r) {
    case '=': Emit(TokenType::kAssign); return State::kInsideAction;
    case ':':
      if (Next() != '=') return Error("expected :=");
      Emit(TokenType::kDeclare);
      return State::kInsideAction;
    case '|': Emit(TokenType::kPipe); return State::kInsideAction;
    case '"': return LexQuote('"', TokenType::kString, "unterminated quoted string");
    case '`': return LexRawQuote();
    case '$': return LexFieldOrVariable(TokenType::kVariable);
    case '\'': return LexQuote('\'', TokenType::kCharConstant, "unterminated character constant");
    case '(':
      ++paren_depth_;
      Emit(TokenType::kLeftParen);
      return State::kInsideAction;
    case ')':
      if (--paren_depth_ < 0) return Error("unexpected right paren");
      Emit(TokenType::kRightParen);
      return State::kInsideAction;
    default: break;
  }
  if (r == '.' && pos_ < in_.size() && (in_[pos_] < '0' || in_[pos_] > '9')) return LexFieldOrVariable(TokenType::kField);
  if (r == '.' || r == '+' || r == '-' || (r >= '0' && r <= '9')) {
    Backup();
    return LexNumber();
  }
  if (IsAlphaNumeric(r)) {
    Backup();
    return LexIdentifier();
  }
  if (r < 0x80 && util::IsGoPrint(r)) {
    Emit(TokenType::kChar);
    return State::kInsideAction;
  }
  return Error("unrecognized character in action: " + RuneName(r));
}

std::vector<Token> Lexer::Run() {
  State state = State::kText;
  while (state != State::kDone) {
    switch (state) {
      case State::kText: state = LexText(); break;
      case State::kLeftDelim: state = LexLeftDelim(); break;
      case State::kComment: state = LexComment(); break;
      case State::kRightDelim: state = LexRightDelim(); break;
      case State::kInsideAction: state = LexInsideAction(); break;
      case State::kDone: break;
    }
  }
  return std::move(tokens_);
}

}  // namespace

std::vector<Token> Lex(std::string_view text) { return Lexer(text).Run(); }

}  // namespace tazuna::manifest::gotemplate
