// type genesissecret: a local GenesisSecret file -> v1 Secrets with stringData. Values are never logged
// and never put in error messages.
#include "manifest/objects.hpp"
#include "manifest/renderers.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

using nlohmann::json;
using Values = std::map<std::string, std::string>;

util::Error GsError(const std::string& path, const std::string& field, const std::string& message) {
  return util::MakeError(util::ErrorKind::kInput, util::StrCat(path, ": ", field, ": ", message));
}

// KEY=VALUE lines; blank and '#' lines skipped; one pair of matching surrounding quotes stripped.
util::Result<Values> ReadEnvFile(const std::string& path, RenderContext& ctx) {
  util::Result<std::string> text = ctx.files.ReadFile(path);
  if (!text) return text.error();
  Values out;
  const std::vector<std::string> lines = util::Split(*text, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = util::Trim(lines[i]);
    if (line.empty() || line.front() == '#') continue;
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      return util::MakeError(util::ErrorKind::kInput, util::StrCat(path, ":", i + 1, ": want KEY=VALUE"));
    }
    std::string_view value = util::Trim(line.substr(eq + 1));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    out[std::string(util::Trim(line.substr(0, eq)))] = std::string(value);
  }
  return out;
}

struct Source {
  const Provider* envfile = nullptr;  ///< null: default-op
  Values envfile_values;
};

util::Result<Source> OpenProvider(const std::string& path, const json& spec, const TazunaFile& file,
                                  RenderContext& ctx) {
  const auto p = spec.find("provider");
  const std::string name = p != spec.end() && p->is_string() ? p->get<std::string>() : "";
  Source source;
  if (name.empty() || name == "default-op") return source;
  std::vector<std::string> declared;
  for (const Provider& provider : file.providers) {
    declared.push_back(provider.name);
    if (provider.name == name) source.envfile = &provider;
  }
  if (!source.envfile) {
    return GsError(path, "spec.provider",
                   util::StrCat("provider ", util::Quote(name), " is not declared in ", file.path,
                                " spec.providers (declared: ", util::Join(declared, ", "), ")"));
  }
  util::Result<Values> values = ReadEnvFile(util::JoinPath(file.dir, source.envfile->envfile_path), ctx);
  if (!values) return values.error().WithContext(util::StrCat("provider ", util::Quote(name)));
  source.envfile_values = std::move(*values);
  return source;
}

// op://<host>/<vault>/<item>: the host is required but unused, as in the Go tool.
util::Result<std::pair<std::string, std::string>> ParseOpUri(const std::string& uri) {
  if (!util::StartsWith(uri, "op://")) return util::MakeError(util::ErrorKind::kInput, "uri must start with op://");
  const std::vector<std::string> parts = util::Split(uri.substr(5), '/');
  if (parts.size() != 3 || parts[0].empty() || parts[1].empty() || parts[2].empty()) {
    return util::MakeError(util::ErrorKind::kInput,
                           util::StrCat("uri ", util::Quote(uri), " must be op://HOST/VAULT/ITEM"));
  }
  return std::pair{parts[1], parts[2]};
}

util::Result<Values> FetchSecret(const json& secret, const std::string& field, const std::string& path, Source& source,
                                 RenderContext& ctx) {
  if (source.envfile) return source.envfile_values;
  const auto uri = secret.find("uri");
  if (uri == secret.end() || !uri->is_string()) return GsError(path, field + ".uri", "required");
  util::Result<std::pair<std::string, std::string>> ref = ParseOpUri(uri->get<std::string>());
  if (!ref) return GsError(path, field + ".uri", ref.error().message);
  const auto prefer = secret.find("preferLabel");
  const bool by_label = prefer != secret.end() && prefer->is_boolean() && prefer->get<bool>();
  return FetchOpItem(ref->first, ref->second, by_label ? OpFieldKey::kLabel : OpFieldKey::kId, ctx);
}

util::Status MapItems(const json& secret, const std::string& field, const std::string& path, const Values& fetched,
                      const Source& source, Values& merged) {
  const auto items = secret.find("items");
  if (items == secret.end() || !items->is_object()) return GsError(path, field + ".items", "required (a mapping)");
  for (const auto& [key, spec] : items->items()) {
    const std::string item_field = util::StrCat(field, ".items.", key);
    std::string map_to = key;
    if (spec.is_object() && spec.contains("mapTo")) {
      if (!spec["mapTo"].is_string()) return GsError(path, item_field + ".mapTo", "must be a string");
      map_to = spec["mapTo"].get<std::string>();
    }
    auto it = fetched.find(key);
    if (it == fetched.end()) {
      const std::string from = source.envfile ? util::StrCat("envfile ", util::Quote(source.envfile->envfile_path),
                                                             " (provider ", util::Quote(source.envfile->name), ")")
                                              : std::string("the 1Password item");
      return GsError(path, item_field, util::StrCat("key ", util::Quote(key), " not found in ", from));
    }
    merged[map_to] = it->second;  // later entries win
  }
  return util::Ok();
}

util::Result<Values> CollectValues(const std::string& path, const json& spec, const TazunaFile& file,
                                   RenderContext& ctx) {
  util::Result<Source> source = OpenProvider(path, spec, file, ctx);
  if (!source) return source.error();
  Values merged;
  const auto secrets = spec.find("secrets");
  if (secrets != spec.end() && !secrets->is_null()) {
    if (!secrets->is_array()) return GsError(path, "spec.secrets", "must be a list");
    for (size_t i = 0; i < secrets->size(); ++i) {
      const std::string field = util::StrCat("spec.secrets[", i, "]");
      if (!(*secrets)[i].is_object()) return GsError(path, field, "must be a mapping");
      util::Result<Values> fetched = FetchSecret((*secrets)[i], field, path, *source, ctx);
      if (!fetched) return fetched.error();
      if (util::Status s = MapItems((*secrets)[i], field, path, *fetched, *source, merged); !s) return s.error();
    }
  }
  const auto statics = spec.find("static");
  if (statics != spec.end() && !statics->is_null()) {
    if (!statics->is_object()) return GsError(path, "spec.static", "must be a mapping");
    for (const auto& [key, value] : statics->items()) {
      merged[key] = value.is_string() ? value.get<std::string>() : value.dump();
    }
  }
  return merged;
}

util::Result<json> SecretObject(const json& out, const std::string& field, const std::string& path,
                                const Values& values) {
  json secret = {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", json::object()}};
  for (const char* key : {"name", "namespace"}) {
    const auto v = out.find(key);
    if (v != out.end() && v->is_string() && !v->get<std::string>().empty()) secret["metadata"][key] = *v;
  }
  if (!secret["metadata"].contains("name")) return GsError(path, field + ".name", "required");
  for (const char* key : {"labels", "annotations"}) {
    const auto v = out.find(key);
    if (v != out.end() && v->is_object() && !v->empty()) secret["metadata"][key] = *v;
  }
  const auto type = out.find("type");
  const bool has_type = type != out.end() && type->is_string() && !type->get<std::string>().empty();
  secret["type"] = has_type ? type->get<std::string>() : "Opaque";
  secret["stringData"] = json(values);
  return secret;
}

}  // namespace

util::Result<Documents> RenderGenesisSecret(const std::string& path, const TazunaFile& file, RenderContext& ctx) {
  util::Result<std::string> text = ctx.files.ReadFile(path);
  if (!text) return text.error();
  util::Result<Documents> docs = ParseDocuments(*text, path);
  if (!docs) return docs.error();
  if (docs->size() != 1 || !docs->front().is_object()) return GsError(path, "spec", "want one GenesisSecret document");
  const auto spec = docs->front().find("spec");
  if (spec == docs->front().end() || !spec->is_object()) return GsError(path, "spec", "required");
  util::Result<Values> values = CollectValues(path, *spec, file, ctx);
  if (!values) return values.error();
  const auto outputs = spec->find("outputs");
  if (outputs == spec->end() || !outputs->is_array()) return GsError(path, "spec.outputs", "required (a list)");
  Documents out;
  for (size_t i = 0; i < outputs->size(); ++i) {
    const std::string field = util::StrCat("spec.outputs[", i, "]");
    const json& o = (*outputs)[i];
    const bool k8s = o.is_object() && o.contains("kubernetesSecret");
    const bool stdout_out = o.is_object() && o.contains("stdout");
    if (k8s == stdout_out) return GsError(path, field, "needs exactly one of kubernetesSecret and stdout");
    if (stdout_out) continue;  // build prints nothing for stdout outputs, as the Go tool
    if (!o["kubernetesSecret"].is_object()) return GsError(path, field + ".kubernetesSecret", "must be a mapping");
    util::Result<json> secret = SecretObject(o["kubernetesSecret"], field + ".kubernetesSecret", path, *values);
    if (!secret) return secret.error();
    out.push_back(std::move(*secret));
  }
  return out;
}

}  // namespace tazuna::manifest
