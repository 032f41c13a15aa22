#include "util/yaml_block.hpp"

#include <cmath>

#include "util/yaml_resolve.hpp"

namespace tazuna::util {
namespace {

using nlohmann::json;

constexpr size_t kMaxDepth = 200;  // deeper: yaml-cpp's path, which has its own limits and messages

bool IsBlank(std::string_view line) { return line.find_first_not_of(' ') == std::string_view::npos; }

size_t IndentOf(std::string_view line) {
  const size_t n = line.find_first_not_of(' ');
  return n == std::string_view::npos ? line.size() : n;
}

/// `---` alone (or followed by spaces or a comment) starts a document.
bool IsDocumentStart(std::string_view line) {
  if (line.substr(0, 3) != "---") return false;
  return line.size() == 3 || line[3] == ' ';
}

/// `- ` or a lone `-` at column `at`.
bool IsEntryAt(std::string_view line, size_t at) {
  return at < line.size() && line[at] == '-' && (at + 1 == line.size() || line[at + 1] == ' ');
}

/// The rest of a line after a value: only spaces, then nothing or a comment.
bool OnlyCommentAfter(std::string_view line, size_t at) {
  const size_t p = line.find_first_not_of(' ', at);
  if (p == std::string_view::npos) return true;
  return line[p] == '#' && p > at;  // a comment needs a space before it
}

enum class Quoted { kClosed, kOpen, kUnsupported };

/// Appends the text of a `quote`d scalar from line[from] to its closing quote (kClosed; `end` is the
/// column after it) or to the end of the line (kOpen). kUnsupported: an escape this reader leaves to
/// yaml-cpp (all but \\ \" \n \t \r and \u outside surrogates, NUL and space).
Quoted ReadQuotedPart(std::string_view line, size_t from, char quote, std::string& out, size_t& end) {
  for (size_t i = from; i < line.size(); ++i) {
    const char c = line[i];
    if (c == quote) {
      if (quote == '\'' && i + 1 < line.size() && line[i + 1] == '\'') {
        out += '\'';
        ++i;
        continue;
      }
      end = i + 1;
      return Quoted::kClosed;
    }
    if (quote == '\'' || c != '\\') {
      out += c;
      continue;
    }
    if (++i >= line.size()) return Quoted::kUnsupported;  // an escaped line break
    switch (line[i]) {
      case '\\': out += '\\'; break;
      case '"': out += '"'; break;
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'u': {
        if (i + 4 >= line.size()) return Quoted::kUnsupported;
        uint32_t code = 0;
        for (size_t k = 1; k <= 4; ++k) {
          const char h = line[i + k];
          const int digit = h >= '0' && h <= '9' ? h - '0'
                            : h >= 'a' && h <= 'f' ? h - 'a' + 10
                            : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                   : -1;
          if (digit < 0) return Quoted::kUnsupported;
          code = code * 16 + static_cast<uint32_t>(digit);
        }
        if (code == 0 || code == ' ' || (code >= 0xD800 && code <= 0xDFFF)) return Quoted::kUnsupported;
        i += 4;
        if (code < 0x80) {
          out += static_cast<char>(code);
        } else if (code < 0x800) {
          out += static_cast<char>(0xC0 | (code >> 6));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
          out += static_cast<char>(0xE0 | (code >> 12));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (code & 0x3F));
        }
        break;
      }
      default:
        return Quoted::kUnsupported;
    }
  }
  return Quoted::kOpen;
}

/// A quoted scalar that starts and ends on this line, at line[at] (a quote); `end` is after it.
bool ReadQuoted(std::string_view line, size_t at, std::string& out, size_t& end) {
  out.clear();
  return ReadQuotedPart(line, at + 1, line[at], out, end) == Quoted::kClosed;
}

/// A character that cannot start a plain scalar (or does so only in forms this reader leaves alone).
bool IsIndicator(char c) {
  return std::string_view("-?:,[]{}#&*!|>'\"%@`").find(c) != std::string_view::npos;
}

class BlockReader {
 public:
  BlockReader(std::string_view text, size_t max_nodes)
      : max_nodes_(max_nodes), final_break_(!text.empty() && text.back() == '\n') {
    for (size_t at = 0; at < text.size();) {
      const size_t end = std::min(text.find('\n', at), text.size());
      lines_.push_back(text.substr(at, end - at));
      at = end + 1;
    }
  }

  size_t line() const { return li_; }

  std::optional<std::vector<json>> Run() {
    std::vector<json> docs;
    bool open = false;  // a `---` was read and its document has no content yet
    while (SkipBlankAndComments()) {
      const std::string_view line = lines_[li_];
      if (IsDocumentStart(line)) {
        if (!OnlyCommentAfter(line, 3)) return std::nullopt;  // content after ---
        if (open) docs.emplace_back(nullptr);  // `---` right after `---`: an empty document
        open = true;
        ++li_;
        continue;
      }
      if (IndentOf(line) != 0 || line[0] == '%' || line.substr(0, 3) == "...") return std::nullopt;
      json doc;
      col_ = 0;
      if (!Node(-1, 0, doc)) return std::nullopt;
      if (NextInDocument() || (li_ < lines_.size() && !IsDocumentStart(lines_[li_]))) return std::nullopt;
      docs.push_back(std::move(doc));
      open = false;
    }
    if (open) docs.emplace_back(nullptr);  // a stream that ends with `---`
    if (docs.empty()) return std::nullopt;
    return docs;
  }

 private:
  /// Moves to the next line with content (not blank, not a comment); false at the end.
  bool SkipBlankAndComments() {
    for (; li_ < lines_.size(); ++li_) {
      const std::string_view line = lines_[li_];
      const size_t p = line.find_first_not_of(' ');
      if (p != std::string_view::npos && line[p] != '#') return true;
    }
    return false;
  }

  /// The next content line (li_ moved there), or false at the end of the stream or document, and at any
  /// line that starts with `---` or `...` (Run reads or refuses it).
  bool NextInDocument() {
    if (!SkipBlankAndComments()) return false;
    const std::string_view start = lines_[li_].substr(0, 3);
    return start != "---" && start != "...";
  }

  bool Count() { return ++nodes_ <= max_nodes_; }

  /// A block node whose first content is at (li_, col_), owned by something at indent `owner`.
  bool Node(long owner, size_t depth, json& out) {
    if (depth > kMaxDepth || static_cast<long>(col_) <= owner) return false;
    const std::string_view line = lines_[li_];
    if (IsEntryAt(line, col_)) return Sequence(col_, depth, out);
    std::string key;
    size_t after = 0;
    if (KeyAt(line, col_, key, after)) return Mapping(col_, depth, out);
    return false;  // a scalar document or a multi-line scalar: yaml-cpp's path
  }

  /// A mapping key at line[at]: sets `key` and `after` (the column after `:`). False if the line is
  /// not a mapping entry this reader handles.
  bool KeyAt(std::string_view line, size_t at, std::string& key, size_t& after) const {
    if (at >= line.size()) return false;
    size_t colon = 0;
    if (line[at] == '"' || line[at] == '\'') {
      size_t end = 0;
      if (!ReadQuoted(line, at, key, end)) return false;
      colon = line.find_first_not_of(' ', end);
      if (colon == std::string_view::npos || line[colon] != ':') return false;
    } else {
      if (IsIndicator(line[at])) return false;
      for (colon = at; colon < line.size(); ++colon) {
        if (line[colon] == ':' && (colon + 1 == line.size() || line[colon + 1] == ' ')) break;
        if (line[colon] == '#' && line[colon - 1] == ' ') return false;
      }
      if (colon == line.size()) return false;
      size_t end = colon;
      while (end > at && line[end - 1] == ' ') --end;
      key.assign(line.substr(at, end - at));
      auto resolved = ResolveYamlScalar("", key);
      if (!resolved || !resolved->is_string() || key == "<<") return false;
    }
    if (colon + 1 < line.size() && line[colon + 1] != ' ') return false;
    after = colon + 1;
    return true;
  }

  enum class Sibling { kNext, kEnd, kBad };

  /// After an entry of a block collection at `indent`: another entry at that indent (li_ on it), the
  /// end of the collection, or a line indented deeper that nothing owns.
  Sibling NextSibling(size_t indent) {
    if (!NextInDocument()) return Sibling::kEnd;
    const size_t at = IndentOf(lines_[li_]);
    if (at < indent) return Sibling::kEnd;
    return at > indent ? Sibling::kBad : Sibling::kNext;
  }

  bool Mapping(size_t indent, size_t depth, json& out) {
    if (!Count()) return false;
    out = json::object();
    for (bool first = true;; first = false) {
      if (!first) {
        const Sibling next = NextSibling(indent);
        if (next != Sibling::kNext) return next == Sibling::kEnd;
        col_ = indent;
      }
      const std::string_view line = lines_[li_];
      std::string key;
      size_t after = 0;
      if (!KeyAt(line, col_, key, after)) return false;  // a stray entry or scalar at this indent
      if (!Count() || out.contains(key)) return false;  // a duplicate key: yaml-cpp's path reports it
      if (!Value(indent, false, line.find_first_not_of(' ', after), depth + 1, out[key])) return false;
    }
  }

  bool Sequence(size_t indent, size_t depth, json& out) {
    if (!Count()) return false;
    out = json::array();
    for (bool first = true;; first = false) {
      if (!first) {
        const Sibling next = NextSibling(indent);
        if (next != Sibling::kNext) return next == Sibling::kEnd;
        if (!IsEntryAt(lines_[li_], indent)) return true;  // the key after a compact sequence
      }
      const std::string_view line = lines_[li_];
      const size_t p = line.find_first_not_of(' ', indent + 1);
      json item;
      std::string key;
      size_t after = 0;
      if (p != std::string_view::npos && IsEntryAt(line, p)) return false;  // `- - x`
      if (p != std::string_view::npos && line[p] != '#' && KeyAt(line, p, key, after)) {
        col_ = p;
        if (depth + 1 > kMaxDepth || !Mapping(p, depth + 1, item)) return false;
      } else if (!Value(indent, true, p, depth + 1, item)) {
        return false;
      }
      out.push_back(std::move(item));
    }
  }

  /// The value of a key (or sequence entry) owned by indent `owner`, starting at line column `at`
  /// (npos: nothing on the line). Leaves li_ on the line after the value.
  bool Value(size_t owner, bool in_sequence, size_t at, size_t depth, json& out) {
    const std::string_view line = lines_[li_];
    if (at == std::string_view::npos || line[at] == '#') {
      ++li_;
      out = nullptr;
      if (!Count()) return false;
      if (!NextInDocument()) return true;
      const size_t next = IndentOf(lines_[li_]);
      col_ = next;
      if (next > owner) return Node(static_cast<long>(owner), depth, out);
      if (next == owner && !in_sequence && IsEntryAt(lines_[li_], owner)) return Sequence(owner, depth, out);
      return true;
    }
    if (!Count()) return false;
    const char c = line[at];
    if (c == '|') return Literal(owner, line, at, out);
    if (c == '\'' || c == '"') {
      std::string text;
      size_t end = 0;
      std::string first;
      switch (ReadQuotedPart(line, at + 1, c, first, end)) {
        case Quoted::kClosed:
          if (!OnlyCommentAfter(line, end)) return false;
          text = std::move(first);
          break;
        case Quoted::kOpen:  // it goes on over the next lines
          if (!QuotedLines(owner, at, text)) return false;
          break;
        case Quoted::kUnsupported:
          return false;
      }
      out = std::move(text);
      return EndOfScalar(owner);
    }
    if (c == '[' || c == '{') {
      if (at + 1 >= line.size() || line[at + 1] != (c == '[' ? ']' : '}') || !OnlyCommentAfter(line, at + 2)) {
        return false;  // a non-empty flow collection: yaml-cpp's path
      }
      out = c == '[' ? json::array() : json::object();
      return EndOfScalar(owner);
    }
    if (IsIndicator(c) && !((c == '-' || c == '?' || c == ':') && at + 1 < line.size() && line[at + 1] != ' ')) {
      return false;
    }
    size_t end = line.size();
    for (size_t i = at; i < line.size(); ++i) {
      if (line[i] == '#' && line[i - 1] == ' ') {
        end = i;
        break;
      }
      if (line[i] == ':' && (i + 1 == line.size() || line[i + 1] == ' ')) return false;  // `a: b: c`
    }
    const bool commented = end < line.size();
    while (end > at && line[end - 1] == ' ') --end;
    std::string text(line.substr(at, end - at));
    ++li_;
    if (!PlainContinuation(owner, commented, text)) return false;
    auto value = ResolveYamlScalar("", text);
    if (!value || (value->is_number_float() && !std::isfinite(value->get<double>()))) return false;
    out = std::move(*value);
    return true;
  }

  /// The lines that continue a plain scalar (more indented than `owner`), folded into `text` as YAML
  /// folds them: a line break between two lines is a space, each blank line between them a newline.
  /// Leaves li_ after the last continuation line.
  bool PlainContinuation(size_t owner, bool commented, std::string& text) {
    size_t blank = 0;
    for (size_t i = li_; i < lines_.size(); ++i) {
      const std::string_view l = lines_[i];
      if (IsBlank(l)) {
        ++blank;
        continue;
      }
      const size_t start = IndentOf(l);
      if (start <= owner || IsDocumentStart(l)) return true;
      if (commented || l[start] == '#' || l[start] == ':' || IsEntryAt(l, start) ||
          (l[start] == '?' && (start + 1 == l.size() || l[start + 1] == ' '))) {
        return false;  // after a comment, or a line that reads as something else: yaml-cpp's path
      }
      size_t end = l.size();
      for (size_t k = start; k < l.size(); ++k) {
        if ((l[k] == '#' && l[k - 1] == ' ') || (l[k] == ':' && (k + 1 == l.size() || l[k + 1] == ' '))) return false;
      }
      while (end > start && l[end - 1] == ' ') --end;
      if (blank == 0) {
        text += ' ';
      } else {
        text.append(blank, '\n');
      }
      text.append(l.substr(start, end - start));
      blank = 0;
      li_ = i + 1;
    }
    return true;
  }

  /// A quoted scalar opened at column `at` of the current line and closed on a later line, each more
  /// indented than `owner`, folded as YAML folds flow scalars (a line break between two lines is a
  /// space, each blank line between them a newline, spaces around breaks dropped). Leaves li_ on its
  /// last line.
  bool QuotedLines(size_t owner, size_t at, std::string& out) {
    const char quote = lines_[li_][at];
    out.clear();
    size_t blank = 0;
    for (size_t i = li_; i < lines_.size(); ++i) {
      const std::string_view l = lines_[i];
      size_t from = at + 1;
      if (i == li_) {
        if (IsBlank(l.substr(from))) return false;  // nothing before the first break: yaml-cpp's path
      } else {
        if (IsBlank(l)) {
          ++blank;
          continue;
        }
        from = IndentOf(l);
        if (from <= owner || IsDocumentStart(l)) return false;
        if (blank == 0) {
          out += ' ';
        } else {
          out.append(blank, '\n');
        }
        blank = 0;
      }
      const size_t mark = out.size();
      size_t end = 0;
      switch (ReadQuotedPart(l, from, quote, out, end)) {
        case Quoted::kClosed:
          li_ = i;
          return OnlyCommentAfter(l, end);
        case Quoted::kUnsupported:
          return false;
        case Quoted::kOpen:
          break;
      }
      while (out.size() > mark && out.back() == ' ') out.pop_back();
    }
    return false;
  }

  /// After a one-line scalar: the next line must not continue it (a multi-line scalar is yaml-cpp's).
  bool EndOfScalar(size_t owner) {
    ++li_;
    for (size_t i = li_; i < lines_.size(); ++i) {
      if (IsBlank(lines_[i])) continue;
      return IndentOf(lines_[i]) <= owner || IsDocumentStart(lines_[i]);
    }
    return true;
  }

  /// `|` or `|-` at line[at]; content on the lines after, more indented than `owner`.
  bool Literal(size_t owner, std::string_view line, size_t at, json& out) {
    bool strip = false;
    size_t p = at + 1;
    if (p < line.size() && line[p] == '-') {
      strip = true;
      ++p;
    }
    if (p < line.size() && line[p] != ' ') return false;  // keep chomping, an indentation digit
    if (!OnlyCommentAfter(line, p)) return false;
    ++li_;
    size_t indent = 0;  // of the content, from its first non-blank line
    for (size_t i = li_; i < lines_.size(); ++i) {
      if (!IsBlank(lines_[i])) {
        indent = IndentOf(lines_[i]);
        break;
      }
    }
    std::string text;
    size_t pending_breaks = 0;  // blank lines not yet known to be inside the content
    bool any = false;
    bool broken = false;  // the last content line ends with a line break
    if (indent > owner) {
      for (; li_ < lines_.size(); ++li_) {
        const std::string_view l = lines_[li_];
        if (IsBlank(l)) {
          if (l.size() > indent) return false;  // spaces beyond the indentation: yaml-cpp's path
          ++pending_breaks;
          continue;
        }
        if (IndentOf(l) < indent) break;
        if (any) text += '\n';
        text.append(pending_breaks, '\n');
        pending_breaks = 0;
        text.append(l.substr(indent));
        any = true;
        broken = li_ + 1 < lines_.size() || final_break_;
      }
    }
    if (broken && !strip) text += '\n';
    out = std::move(text);
    return true;
  }

  std::vector<std::string_view> lines_;
  size_t li_ = 0;   ///< current line
  size_t col_ = 0;  ///< where the current node starts on it
  size_t nodes_ = 0;
  size_t max_nodes_;
  bool final_break_;  ///< the text ends with a line break
};

}  // namespace

std::optional<std::vector<json>> ParseBlockYamlStream(std::string_view text, size_t max_nodes, size_t* left_at) {
  if (left_at != nullptr) *left_at = 0;
  if (text.find_first_of("\t\r") != std::string_view::npos || text.substr(0, 3) == "\xEF\xBB\xBF") {
    if (left_at != nullptr) *left_at = 1;
    return std::nullopt;
  }
  BlockReader reader(text, max_nodes);
  auto docs = reader.Run();
  if (!docs && left_at != nullptr) *left_at = reader.line() + 1;
  return docs;
}

}  // namespace tazuna::util
