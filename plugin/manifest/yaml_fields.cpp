#include "manifest/yaml_fields.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "util/edit_distance.hpp"
#include "util/strings.hpp"
#include "util/yaml_cpp_guard.hpp"
#include "util/yaml_json.hpp"

namespace tazuna::manifest {
namespace {

std::string NearestKey(std::string_view key, std::initializer_list<std::string_view> allowed) {
  // Suggests a known key that differs only in case or by a small edit, as kubectl's field validation hints.
  std::string best;
  size_t best_distance = 3;
  for (const std::string_view candidate : allowed) {
    const size_t d = util::EditDistance(key, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

}  // namespace

Mark MarkOf(const YAML::Node& node) {
  if (!node.IsDefined()) return {};
  const YAML::Mark m = node.Mark();
  if (m.is_null()) return {};
  return {m.line + 1, m.column + 1};
}

std::string ChildField(std::string_view parent, std::string_view key) {
  return parent.empty() ? std::string(key) : util::StrCat(parent, ".", key);
}

std::string IndexField(std::string_view parent, size_t index) { return util::StrCat(parent, "[", index, "]"); }

util::Error NodeReader::ErrorAt(Mark mark, std::string_view field, std::string_view message) const {
  std::string where = file_;
  if (mark.line > 0) where = util::StrCat(file_, ":", mark.line, ":", mark.col);
  std::string text = field.empty() ? util::StrCat(where, ": ", message)
                                   : util::StrCat(where, ": ", field, ": ", message);
  return util::MakeError(util::ErrorKind::kInput, std::move(text));
}

util::Result<YAML::Node> NodeReader::Parse(const std::string& text) const {
  if (util::Status s = util::ValidateYamlText(text, {file_}); !s) return s.error();
  if (const std::optional<util::YamlPosition> at = util::FindEndlessDocuments(text)) {
    const Mark mark{at->line + 1, at->column + 1};
    return ErrorAt(mark, "", util::StrCat("invalid YAML: ", util::kEndlessDocumentsMessage));
  }
  try {
    std::vector<YAML::Node> docs = YAML::LoadAll(text);
    if (docs.size() > 1) return ErrorAt(MarkOf(docs[1]), "", "expected one YAML document, found several");
    if (docs.empty()) return YAML::Node(YAML::NodeType::Null);
    return docs.front();
  } catch (const YAML::Exception& e) {
    const Mark mark = e.mark.is_null() ? Mark{} : Mark{e.mark.line + 1, e.mark.column + 1};
    return ErrorAt(mark, "", util::StrCat("invalid YAML: ", util::YamlCppMessage(e.msg)));
  }
}

util::Status NodeReader::CheckAnyMap(const YAML::Node& node, std::string_view field) const {
  if (!node.IsMap()) return ErrorAt(MarkOf(node), field, "must be a mapping");
  std::set<std::string> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar()) return ErrorAt(MarkOf(it->first), field, "keys must be strings");
    const std::string key = it->first.Scalar();
    if (!seen.insert(key).second) {
      return ErrorAt(MarkOf(it->first), ChildField(field, key), "key repeated in one mapping");
    }
  }
  return util::Ok();
}

util::Status NodeReader::CheckMap(const YAML::Node& node, std::string_view field,
                                  std::initializer_list<std::string_view> allowed) const {
  if (util::Status s = CheckAnyMap(node, field); !s) return s;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.Scalar();
    bool known = false;
    for (const std::string_view a : allowed) known = known || a == key;
    if (known) continue;
    if (key == "<<") return ErrorAt(MarkOf(it->first), field, "merge keys (<<) are not supported in this file");
    std::string message = util::StrCat("unknown field ", util::Quote(key));
    if (const std::string near = NearestKey(key, allowed); !near.empty()) {
      message += util::StrCat(" (did you mean ", util::Quote(near), "?)");
    }
    return ErrorAt(MarkOf(it->first), field, message);
  }
  return util::Ok();
}

std::optional<YAML::Node> NodeReader::Find(const YAML::Node& map, std::string_view key) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  }
  return std::nullopt;
}

std::optional<std::string> NodeReader::IgnoredKey(const YAML::Node& map, std::string_view key,
                                                  std::string_view field, std::string_view why) const {
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (!it->first.IsScalar() || it->first.Scalar() != key) continue;
    const YAML::Node value = it->second;
    if (value.IsNull() || ((value.IsSequence() || value.IsMap()) && value.size() == 0)) return std::nullopt;
    const Mark mark = MarkOf(it->first);
    return util::StrCat(file_, ":", mark.line, ":", mark.col, ": ", ChildField(field, key), " ", why);
  }
  return std::nullopt;
}

util::Result<std::string> NodeReader::Scalar(const YAML::Node& node, std::string_view field) const {
  if (node.IsNull()) return std::string();
  if (!node.IsScalar()) return ErrorAt(MarkOf(node), field, "must be a string");
  return node.Scalar();
}

util::Result<std::string> NodeReader::String(const YAML::Node& map, std::string_view key,
                                             std::string_view field) const {
  const std::optional<YAML::Node> node = Find(map, key);
  if (!node) return std::string();
  return Scalar(*node, ChildField(field, key));
}

util::Result<bool> NodeReader::Bool(const YAML::Node& map, std::string_view key, std::string_view field) const {
  const std::optional<YAML::Node> node = Find(map, key);
  if (!node || node->IsNull()) return false;
  const std::string sub = ChildField(field, key);
  if (!node->IsScalar()) return ErrorAt(MarkOf(*node), sub, "must be true or false");
  const std::string v = util::ToLower(node->Scalar());
  if (v == "true" || v == "yes" || v == "on" || v == "y") return true;
  if (v == "false" || v == "no" || v == "off" || v == "n") return false;
  return ErrorAt(MarkOf(*node), sub, util::StrCat("must be true or false, not ", util::Quote(node->Scalar())));
}

util::Result<YAML::Node> NodeReader::Sequence(const YAML::Node& map, std::string_view key,
                                              std::string_view field) const {
  const std::optional<YAML::Node> node = Find(map, key);
  if (!node || node->IsNull()) return YAML::Node(YAML::NodeType::Sequence);
  if (!node->IsSequence()) return ErrorAt(MarkOf(*node), ChildField(field, key), "must be a list");
  return *node;
}

util::Result<std::vector<std::string>> NodeReader::StringList(const YAML::Node& map, std::string_view key,
                                                              std::string_view field) const {
  util::Result<YAML::Node> seq = Sequence(map, key, field);
  if (!seq) return seq.error();
  std::vector<std::string> out;
  const std::string sub = ChildField(field, key);
  for (size_t i = 0; i < seq->size(); ++i) {
    const YAML::Node item = (*seq)[i];
    if (!item.IsScalar()) return ErrorAt(MarkOf(item), IndexField(sub, i), "must be a string");
    out.push_back(item.Scalar());
  }
  return out;
}

util::Result<std::map<std::string, std::string>> NodeReader::StringMap(const YAML::Node& map, std::string_view key,
                                                                       std::string_view field) const {
  const std::optional<YAML::Node> node = Find(map, key);
  std::map<std::string, std::string> out;
  if (!node || node->IsNull()) return out;
  const std::string sub = ChildField(field, key);
  if (util::Status s = CheckAnyMap(*node, sub); !s) return s.error();
  for (auto it = node->begin(); it != node->end(); ++it) {
    util::Result<std::string> value = Scalar(it->second, ChildField(sub, it->first.Scalar()));
    if (!value) return value.error();
    out[it->first.Scalar()] = *value;
  }
  return out;
}

}  // namespace tazuna::manifest
