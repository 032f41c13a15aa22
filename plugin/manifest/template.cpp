#include "manifest/template.hpp"

#include <set>

#include "manifest/gotemplate/exec.hpp"
#include "manifest/gotemplate/parse.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

struct Position {
  int line = 1;
  int col = 1;
};

Position PositionOf(std::string_view text, size_t offset) {
  Position pos;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      pos.col = 1;
    } else {
      ++pos.col;
    }
  }
  return pos;
}

util::Error TemplateError(const std::string& file, std::string_view text, size_t offset,
                          const std::string& message) {
  const Position pos = PositionOf(text, offset);
  return util::MakeError(util::ErrorKind::kInput,
                         util::StrCat(file, ":", pos.line, ":", pos.col, ": template: ", message));
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void TrimTrailingSpace(std::string& out) {
  while (!out.empty() && IsSpace(out.back())) out.pop_back();
}

}  // namespace

util::Result<std::string> ExpandActions(std::string_view text, const std::string& file,
                                        const ActionEvaluator& evaluate) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t open = text.find("{{", i);
    if (open == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, open - i));
    const size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos) return TemplateError(file, text, open, "unclosed action \"{{\"");
    std::string_view inner = text.substr(open + 2, close - open - 2);
    const bool trim_left = util::StartsWith(inner, "- ") || inner == "-";
    const bool trim_right = util::EndsWith(inner, " -");
    if (trim_left) inner.remove_prefix(1);
    if (trim_right) inner.remove_suffix(1);
    auto value = evaluate(util::Trim(inner));
    if (!value) return TemplateError(file, text, open, value.error().message);
    if (trim_left) TrimTrailingSpace(out);
    out.append(*value);
    i = close + 2;
    while (trim_right && i < text.size() && IsSpace(text[i])) ++i;
  }
  return out;
}

util::Result<std::string> RenderTazunaTemplate(std::string_view text, const std::string& file,
                                               const std::string& environment) {
  const gotemplate::Source source{text, file};
  std::set<std::string> functions;
  for (const auto& [name, f] : gotemplate::Builtins()) functions.insert(name);
  auto trees = gotemplate::Parse(source, file, functions);
  if (!trees) return trees.error();
  const util::GoValue data = util::GoValue::Struct({"tmpl.Data", {{"Environment", util::GoValue::String(environment)}}});
  gotemplate::ExecOptions options;
  options.missing_key = gotemplate::MissingKey::kError;
  return gotemplate::Execute(source, *trees, file, data, options);
}

}  // namespace tazuna::manifest
