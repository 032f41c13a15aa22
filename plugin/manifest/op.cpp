// 1Password through the `op` CLI, as the Go tool's default-op provider.
#include "manifest/renderers.hpp"
#include "manifest/tool.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

// Vault and item names go on op's command line; refuse anything that could be read as a flag.
util::Status CheckIdentifier(const std::string& what, const std::string& value) {
  if (value.empty()) return util::MakeError(util::ErrorKind::kInput, util::StrCat("1Password ", what, " is empty"));
  if (value.front() == '-' || value.find_first_of("\n\r") != std::string::npos) {
    return util::MakeError(util::ErrorKind::kInput, util::StrCat("invalid 1Password ", what, " ", util::Quote(value)));
  }
  return util::Ok();
}

}  // namespace

util::Result<std::map<std::string, std::string>> FetchOpItem(const std::string& vault, const std::string& item,
                                                             OpFieldKey field_key, RenderContext& ctx) {
  if (util::Status s = CheckIdentifier("vault", vault); !s) return s.error();
  if (util::Status s = CheckIdentifier("item", item); !s) return s.error();
  const std::vector<std::string> argv = {"op", "--format", "json", "item", "get", "--vault", vault, item};
  util::Result<std::string> out = RunTool({argv, "", "", {}}, ctx);
  if (!out) {
    if (out.error().kind == util::ErrorKind::kToolMissing) {
      return util::MakeError(util::ErrorKind::kToolMissing, "1Password: \"op\" not found on PATH");
    }
    return out.error();
  }
  const nlohmann::json parsed = nlohmann::json::parse(*out, nullptr, /*allow_exceptions=*/false);
  const auto fields = parsed.is_object() ? parsed.find("fields") : parsed.end();
  if (!parsed.is_object() || fields == parsed.end() || !fields->is_array()) {
    return util::MakeError(util::ErrorKind::kInput,
                           util::StrCat("op item get ", util::Quote(item), ": unexpected output (no fields list)"));
  }
  std::map<std::string, std::string> values;
  for (const nlohmann::json& f : *fields) {
    if (!f.is_object()) continue;
    const auto key = f.find(field_key == OpFieldKey::kLabel ? "label" : "id");
    const auto value = f.find("value");
    if (key == f.end() || !key->is_string() || value == f.end() || !value->is_string()) continue;
    values[key->get<std::string>()] = value->get<std::string>();
  }
  return values;
}

}  // namespace tazuna::manifest
