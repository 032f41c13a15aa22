#include "util/yaml_json.hpp"

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "util/go_json.hpp"
#include "util/yaml_block.hpp"
#include "util/yaml_cpp_guard.hpp"
#include "util/strings.hpp"
#include "util/yaml_resolve.hpp"

namespace tazuna::util {
namespace {

using nlohmann::json;

// yaml-cpp parses at most 2000 levels. Aliases nest deeper through a cycle (`&a [*a]`), rejected as
// goyaml.v2 does ("anchor value contains itself"), or through chains of anchors, cut here: each level
// costs a few stack frames, and a worker thread's stack (or a sanitizer build's) is not unlimited.
constexpr int kMaxDepth = 1000;
constexpr std::string_view kCoreTagPrefix = "tag:yaml.org,2002:";

Error PositionedError(const YamlOptions& options, int line, int column, std::string_view message) {
  if (line < 0) return MakeError(ErrorKind::kInput, StrCat(options.source_name, ": ", message));
  return MakeError(ErrorKind::kInput,
                   StrCat(options.source_name, ":", line + 1, ":", column + 1, ": ", message));
}

/// Length of the UTF-8 sequence at text[i] and its code point; 0 if invalid.
size_t DecodeUtf8(std::string_view text, size_t i, uint32_t& code) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  if (b0 < 0x80) return code = b0, 1;
  const size_t len = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 0;
  if (len == 0 || i + len > text.size()) return 0;
  code = b0 & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(text[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    code = code << 6 | (b & 0x3F);
  }
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kMin[len] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return len;
}

bool AllowedInYaml(uint32_t c) {
  // goyaml.v2's reader accepts exactly the YAML 1.1 printable set.
  return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85 ||
         (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

}  // namespace

Status ValidateYamlText(std::string_view text, const YamlOptions& options) {
  int line = 0, column = 0;
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte <= 0x7E) {  // printable ASCII, most of any manifest
      ++column, ++i;
      continue;
    }
    uint32_t code = 0;
    const size_t len = DecodeUtf8(text, i, code);
    if (len == 0) return PositionedError(options, line, column, "invalid UTF-8 in YAML input");
    if (!AllowedInYaml(code)) {
      std::string hex;
      for (uint32_t v = code; v > 0 || hex.size() < 2; v >>= 4) hex.insert(hex.begin(), "0123456789abcdef"[v & 0xF]);
      return PositionedError(options, line, column,
                             StrCat("control characters are not allowed (character 0x", hex, ")"));
    }
    if (code == '\n') {
      ++line, column = 0;
    } else {
      ++column;
    }
    i += len;
  }
  return Ok();
}

namespace {

/// goyaml.v2 spelling of a yaml-cpp tag: "" for plain, "!!int" for core tags.
std::string GoTag(const std::string& tag) {
  if (tag == "?") return "";
  if (tag.rfind(kCoreTagPrefix, 0) == 0) return StrCat("!!", tag.substr(kCoreTagPrefix.size()));
  return tag;
}

/// goyaml.v2's double-quoted escapes (no YAML 1.2 `\/`); a backslash may also end a line.
bool IsKnownEscape(char c) {
  return std::string_view("0abt\tnvfre \"'\\N_LPxuU\r\n").find(c) != std::string_view::npos;
}

enum class QuotedScan { kClosed, kUnclosed, kBadEscape };

/// Checks the quoted scalar starting at text[pos] ends and uses only known escapes.
QuotedScan ScanQuoted(std::string_view text, size_t pos) {
  const char quote = text[pos];
  for (size_t i = pos + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      if (i + 1 < text.size() && !IsKnownEscape(text[i + 1])) return QuotedScan::kBadEscape;
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;
        continue;
      }
      return QuotedScan::kClosed;
    }
  }
  return QuotedScan::kUnclosed;
}

/// yaml-cpp 0.7 writes the escapes \N and \_ as the single bytes 0x85 and 0xA0; the input was
/// checked to be UTF-8, so any such lone byte came from them. Re-encode them as U+0085/U+00A0.
std::string FixLatin1Escapes(const std::string& text) {
  if (text.find_first_of("\x85\xA0") == std::string::npos) return text;
  std::string out;
  for (size_t i = 0; i < text.size();) {
    uint32_t code = 0;
    const size_t len = DecodeUtf8(text, i, code);
    if (len == 0) {
      out += "\xC2";
      out.push_back(text[i++]);
      continue;
    }
    out.append(text, i, len);
    i += len;
  }
  return out;
}

class Converter {
 public:
  Converter(std::string_view text, const YamlOptions& options) : text_(text), options_(options) {}

  /// `parent_column`: the column of the block collection holding `node` (-1: none), which a block
  /// scalar's content must be indented past.
  Result<json> Value(const YAML::Node& node, int depth, int parent_column) {
    if (Status s = Count(node, depth); !s) return s.error();
    if (node.IsSequence() || node.IsMap()) return Collection(node, depth);
    if (node.IsScalar()) return ScalarValue(node, parent_column);
    return json(nullptr);  // Null, Undefined
  }

 private:
  // A sequence or map, inside its ancestors on path_ (an alias back to one of them is a cycle).
  Result<json> Collection(const YAML::Node& node, int depth) {
    if (Status s = Enter(node); !s) return s.error();
    auto out = CollectionValue(node, depth);
    path_.pop_back();
    return out;
  }

  Status Enter(const YAML::Node& node) {
    for (const YAML::Node& ancestor : path_) {
      if (ancestor.is(node)) return At(node, "anchor value contains itself");
    }
    path_.push_back(node);
    return Ok();
  }

  Result<json> CollectionValue(const YAML::Node& node, int depth) {
    switch (node.Type()) {
      case YAML::NodeType::Sequence: {
        json out = json::array();
        for (const auto& item : node) {
          auto value = Value(item, depth + 1, node.Mark().column);  // a block sequence's mark is its `-`
          if (!value) return value.error();
          out.push_back(std::move(*value));
        }
        return out;
      }
      case YAML::NodeType::Map: {
        json out = json::object();
        if (Status s = MapInto(node, out, depth); !s) return s.error();
        return out;
      }
      default:
        return json(nullptr);  // not reached: Value sends only sequences and maps here
    }
  }

  Error At(const YAML::Node& node, std::string_view message) const {
    const YAML::Mark mark = node.Mark();
    return PositionedError(options_, mark.line, mark.column, message);
  }

  Status Count(const YAML::Node& node, int depth) {
    if (++nodes_ > options_.max_nodes) {
      return At(node, StrCat("document has more than ", options_.max_nodes,
                             " nodes after alias expansion"));
    }
    if (depth > kMaxDepth) return At(node, StrCat("nesting too deep (more than ", kMaxDepth, " levels)"));
    return Ok();
  }

  /// Offset of the node's content after any tag and anchor, or npos.
  size_t SkipProperties(const YAML::Node& node) const {
    const YAML::Mark mark = node.Mark();
    if (mark.pos < 0 || static_cast<size_t>(mark.pos) >= text_.size()) return std::string_view::npos;
    size_t pos = static_cast<size_t>(mark.pos);
    while (pos < text_.size() && (text_[pos] == '!' || text_[pos] == '&')) {
      pos = text_.find_first_of(" \t\n", pos);
      pos = text_.find_first_not_of(" \t\n", pos == std::string_view::npos ? text_.size() : pos);
    }
    return pos < text_.size() ? pos : std::string_view::npos;
  }

  // yaml-cpp 0.7 silently ends a quoted scalar at the end of the stream and accepts YAML 1.2's
  // `\/` escape; goyaml.v2 rejects both. The node's mark points at its properties or its opening quote.
  Status CheckQuoted(const YAML::Node& node) {
    const size_t pos = SkipProperties(node);
    if (pos == std::string_view::npos || (text_[pos] != '"' && text_[pos] != '\'')) return Ok();
    if (!checked_quotes_.insert(pos).second) return Ok();
    switch (ScanQuoted(text_, pos)) {
      case QuotedScan::kClosed:
        return Ok();
      case QuotedScan::kBadEscape:
        return At(node, "found unknown escape character while parsing a quoted scalar");
      case QuotedScan::kUnclosed:
        break;
    }
    return At(node, "found unexpected end of stream while scanning a quoted scalar");
  }

  // An alias shares its node's position but not its place: the breaks are counted once, where the
  // anchored scalar is written (first in document order), and reused for every alias of it.
  void FixFoldedKeep(const YAML::Node& node, int parent_column, std::string& value) {
    const size_t pos = SkipProperties(node);
    if (pos == std::string_view::npos) return;
    const auto [at, inserted] = folded_keep_breaks_.try_emplace(pos);
    if (inserted) at->second = FoldedKeepBreaks(text_, pos, parent_column);
    const std::optional<size_t> breaks = at->second;
    if (!breaks) return;
    while (!value.empty() && value.back() == '\n') value.pop_back();
    value.append(*breaks, '\n');
  }

  Result<json> Resolve(const YAML::Node& node, int parent_column) {
    const std::string& tag = node.Tag();
    std::string text = FixLatin1Escapes(node.Scalar());
    if (tag != "?") {  // not a plain scalar: quoted or block, maybe tagged
      if (Status s = CheckQuoted(node); !s) return s.error();
      FixFoldedKeep(node, parent_column, text);
    }
    if (tag == "!") return json(std::move(text));  // non-specific: always a string
    auto value = ResolveYamlScalar(GoTag(tag), text);
    if (!value) return At(node, value.error().message);
    return value;
  }

  Result<json> ScalarValue(const YAML::Node& node, int parent_column) {
    auto value = Resolve(node, parent_column);
    if (value && value->is_number_float() && !std::isfinite(value->get<double>())) {
      // encoding/json refuses NaN and infinities, so sigs.k8s.io/yaml fails on them.
      return At(node, StrCat("unsupported value ", node.Scalar(), ": JSON has no NaN or infinity"));
    }
    return value;
  }

  static bool IsMergeKey(const YAML::Node& key) {
    return key.IsScalar() && key.Scalar() == "<<" &&
           (key.Tag() == "?" || key.Tag() == StrCat(kCoreTagPrefix, "merge"));
  }

  // sigs.k8s.io/yaml's key stringification (convertToJSONableObject).
  Result<std::string> Key(const YAML::Node& key, int depth) {
    if (Status s = Count(key, depth); !s) return s.error();
    if (key.IsMap() || key.IsSequence()) return At(key, "invalid map key: a map or sequence");
    if (!key.IsScalar()) return At(key, "unsupported map key: null");
    auto value = Resolve(key, key.Mark().column);
    if (!value) return value.error();
    if (value->is_string()) return value->get<std::string>();
    if (value->is_boolean()) return std::string(value->get<bool>() ? "true" : "false");
    if (value->is_number_unsigned()) return At(key, StrCat("unsupported map key of type uint64: ", key.Scalar()));
    if (value->is_number_integer()) return std::to_string(value->get<int64_t>());
    if (value->is_number_float()) {
      const std::string text = FormatGoFloat32G(value->get<double>());
      if (text == "+Inf") return std::string(".inf");
      if (text == "-Inf") return std::string("-.inf");
      if (text == "NaN") return std::string(".nan");
      return text;
    }
    return At(key, "unsupported map key: null");
  }

  // Pairs apply in order and a later one overrides an earlier one, as goyaml.v2 does; only an
  // explicit key written twice in the same mapping is an error (SPEC §2).
  Status MapInto(const YAML::Node& node, json& out, int depth) {
    std::set<std::string> seen;
    for (const auto& pair : node) {
      if (LacksValueIndicator(node, pair.first, pair.second)) return At(pair.first, kMissingColonMessage);
      if (IsMergeKey(pair.first)) {
        if (Status s = Merge(pair.second, out, depth + 1); !s) return s;
        continue;
      }
      auto key = Key(pair.first, depth + 1);
      if (!key) return key.error();
      if (!seen.insert(*key).second) return At(pair.first, StrCat("duplicate key ", Quote(*key)));
      auto value = Value(pair.second, depth + 1, pair.first.Mark().column);  // a simple key's column is its map's
      if (!value) return value.error();
      out[*key] = std::move(*value);
    }
    return Ok();
  }

  Status Merge(const YAML::Node& value, json& out, int depth) {
    if (Status s = Count(value, depth); !s) return s;
    if (value.IsMap()) return MergeMap(value, out, depth);
    if (!value.IsSequence()) return At(value, "map merge requires map or sequence of maps as the value");
    // Earlier maps in the list take precedence, so apply them last.
    for (size_t i = value.size(); i-- > 0;) {
      const YAML::Node item = value[i];
      if (!item.IsMap()) return At(item, "map merge requires map or sequence of maps as the value");
      if (Status s = Count(item, depth + 1); !s) return s;
      if (Status s = MergeMap(item, out, depth + 1); !s) return s;
    }
    return Ok();
  }

  Status MergeMap(const YAML::Node& map, json& out, int depth) {
    if (Status s = Enter(map); !s) return s;
    Status st = MapInto(map, out, depth);
    path_.pop_back();
    return st;
  }

  std::string_view text_;
  const YamlOptions& options_;
  size_t nodes_ = 0;
  std::set<size_t> checked_quotes_;  ///< quoted scalars already verified (aliases repeat them)
  std::map<size_t, std::optional<size_t>> folded_keep_breaks_;  ///< FoldedKeepBreaks by scalar position
  std::vector<YAML::Node> path_;     ///< the sequences and maps being converted, outermost first
};

}  // namespace

Result<std::vector<json>> ParseYamlStream(std::string_view text, const YamlOptions& options) {
  if (Status s = ValidateYamlText(text, options); !s) return s.error();
  if (options.block_reader) {
    if (auto docs = ParseBlockYamlStream(text, options.max_nodes)) return std::move(*docs);
  }
  std::vector<json> out;
  try {
    const std::string owned(text);
    if (const std::optional<YamlPosition> at = FindEndlessDocuments(owned)) {
      return PositionedError(options, at->line, at->column, kEndlessDocumentsMessage);
    }
    const std::vector<YAML::Node> docs = YAML::LoadAll(owned);
    for (const YAML::Node& doc : docs) {
      Converter converter(text, options);
      auto value = converter.Value(doc, 0, -1);
      if (!value) return value.error();
      out.push_back(std::move(*value));
    }
  } catch (const YAML::Exception& e) {
    // yaml-cpp reports syntax errors (and its own depth limit) as exceptions with a mark.
    return PositionedError(options, e.mark.line, e.mark.column, YamlCppMessage(e.msg));
  }
  return out;
}

Result<json> ParseYamlDocument(std::string_view text, const YamlOptions& options) {
  auto docs = ParseYamlStream(text, options);
  if (!docs) return docs.error();
  if (docs->empty()) return json(nullptr);
  if (docs->size() > 1) {
    return MakeError(ErrorKind::kInput, StrCat(options.source_name, ": expected one YAML document, got ",
                                               docs->size()));
  }
  return std::move(docs->front());
}

}  // namespace tazuna::util
