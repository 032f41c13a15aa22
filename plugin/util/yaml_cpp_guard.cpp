#include "util/yaml_cpp_guard.hpp"

#include <algorithm>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "util/strings.hpp"

namespace tazuna::util {
namespace {

// Notes whether a document is nothing but one null node, and where that node is.
class LoneNullFinder : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override { events_ = 0; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override {
    ++events_;
    null_at_ = mark;
  }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { ++events_; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override { ++events_; }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    ++events_;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    ++events_;
  }
  void OnMapEnd() override {}

  /// The position of the document's null node when that is all the document held.
  std::optional<YAML::Mark> lone_null() const {
    return events_ == 1 && null_at_.pos >= 0 ? std::optional<YAML::Mark>(null_at_) : std::nullopt;
  }

 private:
  int events_ = 0;
  YAML::Mark null_at_ = YAML::Mark::null_mark();
};

/// Number of spaces at the start of `line`.
size_t Indentation(std::string_view line) {
  const size_t n = line.find_first_not_of(' ');
  return n == std::string_view::npos ? line.size() : n;
}

/// The content indentation of a block scalar in a collection at `parent_column`, as goyaml.v2's scanner
/// finds it: an indentation indicator counts from that column; otherwise the first non-empty line's
/// indentation, but always past that column and at least 1. `first` is that line's indentation.
size_t ContentIndent(std::string_view indicators, int parent_column, size_t first) {
  const size_t digit = indicators.find_first_of("123456789");
  if (digit != std::string_view::npos) {
    return static_cast<size_t>(std::max(parent_column, 0)) + static_cast<size_t>(indicators[digit] - '0');
  }
  return std::max(first, static_cast<size_t>(std::max(parent_column + 1, 1)));
}

}  // namespace

std::optional<size_t> FoldedKeepBreaks(std::string_view text, size_t pos, int parent_column) {
  if (pos >= text.size() || text[pos] != '>') return std::nullopt;
  const size_t header_end = text.find('\n', pos);
  if (header_end == std::string_view::npos) return std::nullopt;
  const std::string_view header = text.substr(pos + 1, header_end - pos - 1);
  const std::string_view indicators = header.substr(0, header.find_first_not_of("+-0123456789"));
  if (indicators.find('+') == std::string_view::npos) return std::nullopt;
  size_t content_indent = std::string_view::npos;  // until the first non-empty line
  size_t breaks = 0;
  for (size_t at = header_end + 1; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t line_break = end < text.size() ? 1 : 0;
    at = end + 1;
    if (line.find_first_not_of(' ') == std::string_view::npos) {
      breaks += line_break;
      continue;
    }
    if (content_indent == std::string_view::npos) {
      content_indent = ContentIndent(indicators, parent_column, Indentation(line));
    }
    if (Indentation(line) < content_indent) break;
    breaks = line_break;
  }
  return breaks;
}

std::optional<YamlPosition> FindEndlessDocuments(const std::string& text) {
  std::istringstream in(text);
  LoneNullFinder finder;
  std::optional<YAML::Mark> previous;
  try {
    YAML::Parser parser(in);
    // Two documents that are the same lone null at the same place: the parser made no progress and
    // LoadAll would repeat it forever.
    while (parser.HandleNextDocument(finder)) {
      const std::optional<YAML::Mark> null_at = finder.lone_null();
      if (null_at && previous && null_at->pos == previous->pos) return YamlPosition{null_at->line, null_at->column};
      previous = null_at;
    }
  } catch (const YAML::Exception&) {
    // LoadAll meets the same error and reports it.
  }
  return std::nullopt;
}

bool LacksValueIndicator(const YAML::Node& map, const YAML::Node& key, const YAML::Node& value) {
  // yaml-cpp's HandleBlockMap gives a missing value the position of the KEY token, which for a simple key
  // is where the key (or its tag or anchor) starts; a value after ':' starts later. An explicit `? k` has
  // its KEY token at '?', before the key, and a flow mapping may omit ':' (`{a, b: 1}`, as goyaml.v2).
  // An alias of the key (`&k a: *k`) is the key itself, not a missing value.
  return map.Style() == YAML::EmitterStyle::Block && value.IsNull() && !value.is(key) &&
         value.Mark().pos >= 0 && value.Mark().pos == key.Mark().pos;
}

std::string YamlCppMessage(const std::string& message) {
  // yaml-cpp's DepthGuard throws DeepRecursion with ErrorMsg::BAD_FILE; we never use YAML::LoadFile,
  // the only other source of that text.
  if (message == "bad file") return "nesting too deep (more than 2000 levels)";
  std::string out;
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out += c;
      continue;
    }
    const std::string quoted = Quote(std::string_view(&c, 1));  // "\n" or "\x01", quotes included
    out.append(quoted, 1, quoted.size() - 2);
  }
  return out;
}

}  // namespace tazuna::util
