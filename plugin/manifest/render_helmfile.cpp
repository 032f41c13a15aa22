// type helmfile: `helmfile template` when installed, else `helm template` per release of the
// helmfile.yaml subset the Go tool supports (releases, repositories, values files and inline maps).
#include <algorithm>

#include "manifest/helmfile_template.hpp"
#include "manifest/objects.hpp"
#include "manifest/renderers.hpp"
#include "manifest/tool.hpp"
#include "util/strings.hpp"
#include "util/yaml_json.hpp"

namespace tazuna::manifest {
namespace {

using nlohmann::json;

util::Error HfError(const std::string& file, const std::string& message) {
  return util::MakeError(util::ErrorKind::kInput, util::StrCat(file, ": ", message));
}

util::Result<std::string> FindHelmfile(const std::string& path, RenderContext& ctx) {
  if (!ctx.files.IsDirectory(path)) {
    if (ctx.files.Exists(path)) return path;
    return util::MakeError(util::ErrorKind::kNotFound,
                           util::StrCat("helmfile: ", util::Quote(path), " does not exist"));
  }
  for (const char* name : {"helmfile.yaml.gotmpl", "helmfile.yaml", "helmfile.yml.gotmpl", "helmfile.yml"}) {
    const std::string candidate = util::JoinPath(path, name);
    if (ctx.files.Exists(candidate)) return candidate;
  }
  return util::MakeError(util::ErrorKind::kNotFound,
                         util::StrCat("helmfile: no helmfile.yaml(.gotmpl) or helmfile.yml(.gotmpl) in ",
                                      util::Quote(path)));
}

// Deep merge as helm does for values: maps merge key by key, anything else is replaced by the later value.
void MergeValues(json& base, const json& overlay) {
  if (!base.is_object() || !overlay.is_object()) {
    base = overlay;
    return;
  }
  for (const auto& [key, value] : overlay.items()) {
    if (base.contains(key) && base[key].is_object() && value.is_object()) {
      MergeValues(base[key], value);
    } else {
      base[key] = value;
    }
  }
}

util::Status MergeValuesFile(const std::string& path, json& merged, RenderContext& ctx) {
  util::Result<std::string> text = ctx.files.ReadFile(path);
  if (!text) return text.error();
  util::YamlOptions options;
  options.source_name = path;
  util::Result<json> doc = util::ParseYamlDocument(*text, options);
  if (!doc) return doc.error();
  if (doc->is_null()) return util::Ok();
  if (!doc->is_object()) return HfError(path, "values file must hold a mapping");
  MergeValues(merged, *doc);
  return util::Ok();
}

struct HelmfileRun {
  std::string file;  ///< the helmfile
  std::string dir;   ///< its directory
  const HelmfileOptions& options;
  const TazunaFile& tazuna;
  json repositories = json::object();  ///< name -> url
};

util::Result<json> ReleaseValues(const json& release, const HelmfileRun& run, RenderContext& ctx) {
  json merged = json::object();
  const auto values = release.find("values");
  if (values != release.end() && !values->is_null()) {
    if (!values->is_array()) return HfError(run.file, "releases[].values must be a list");
    for (const json& entry : *values) {
      if (entry.is_string()) {
        const std::string file = util::JoinPath(run.dir, entry.get<std::string>());
        if (util::Status s = MergeValuesFile(file, merged, ctx); !s) return s.error();
      } else if (entry.is_object()) {
        MergeValues(merged, entry);
      } else if (!entry.is_null()) {
        return HfError(run.file, "releases[].values entries must be file paths or mappings");
      }
    }
  }
  for (const std::string& extra : run.options.extra_value_files) {
    if (util::Status s = MergeValuesFile(util::JoinPath(run.tazuna.dir, extra), merged, ctx); !s) return s.error();
  }
  return merged;
}

std::string StringOf(const json& obj, const char* key) {
  const auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Local path, oci:// reference, or REPO/CHART through spec.repositories (`--repo URL CHART`).
std::vector<std::string> ChartArgs(const std::string& chart, const HelmfileRun& run) {
  if (util::StartsWith(chart, "oci://")) return {chart};
  const size_t slash = chart.find('/');
  if (slash != std::string::npos && run.repositories.contains(chart.substr(0, slash))) {
    return {chart.substr(slash + 1), "--repo", run.repositories[chart.substr(0, slash)].get<std::string>()};
  }
  return {util::JoinPath(run.dir, chart)};
}

util::Status CheckReleaseKeys(const json& release, const std::string& file) {
  static const std::vector<std::string> kAllowed = {"name", "namespace", "chart", "version", "values", "labels",
                                                    "installed", "createNamespace", "wait", "timeout"};
  for (const auto& [key, value] : release.items()) {
    if (std::find(kAllowed.begin(), kAllowed.end(), key) != kAllowed.end()) continue;
    return HfError(file, util::StrCat("releases[].", key, " is not supported without the helmfile binary (supported: ",
                                      util::Join(kAllowed, ", "), ")"));
  }
  return util::Ok();
}

util::Result<Documents> TemplateRelease(const json& release, const HelmfileRun& run, RenderContext& ctx) {
  if (util::Status s = CheckReleaseKeys(release, run.file); !s) return s.error();
  const std::string name = StringOf(release, "name"), chart = StringOf(release, "chart");
  if (name.empty() || chart.empty()) return HfError(run.file, "every release needs name and chart");
  util::Result<json> values = ReleaseValues(release, run, ctx);
  if (!values) return values.error();
  std::string ns = StringOf(release, "namespace");
  if (ns.empty()) ns = run.options.default_namespace.empty() ? "default" : run.options.default_namespace;
  std::vector<std::string> argv = {"helm", "template", name};
  for (std::string& a : ChartArgs(chart, run)) argv.push_back(std::move(a));
  for (const std::string& a : {std::string("--namespace"), ns}) argv.push_back(a);
  if (const std::string v = StringOf(release, "version"); !v.empty()) argv.insert(argv.end(), {"--version", v});
  // helm install --dry-run's release.Manifest, which the Go tool applies, holds no hooks.
  argv.push_back("--no-hooks");
  if (run.options.include_crds) argv.push_back("--include-crds");
  if (!run.options.kube_version.empty()) {
    argv.insert(argv.end(), {"--kube-version", run.options.kube_version});
  } else if (const std::optional<Capabilities> caps = ctx.capabilities ? ctx.capabilities() : std::nullopt) {
    // As the Go tool: the cluster's version and every GroupVersion(/Kind) it serves.
    argv.insert(argv.end(), {"--kube-version", caps->kube_version});
    for (const std::string& v : caps->api_versions) argv.insert(argv.end(), {"--api-versions", v});
  }
  argv.insert(argv.end(), {"--values", "-"});
  // Values go through stdin: they may hold secrets from op vars and must not touch the disk.
  util::Result<std::string> out = RunTool({argv, "", values->dump(), {}}, ctx);
  if (!out && out.error().kind == util::ErrorKind::kToolMissing) {
    return util::MakeError(util::ErrorKind::kToolMissing, "helmfile: neither \"helmfile\" nor \"helm\" found on PATH");
  }
  if (!out) return out.error();
  return ParseDocuments(*out, util::StrCat("helm template output of release ", util::Quote(name)));
}

util::Result<json> LoadHelmfileState(HelmfileRun& run, const json& vars, RenderContext& ctx) {
  util::Result<std::string> text = ctx.files.ReadFile(run.file);
  if (!text) return text.error();
  // helmfile names the environment "default" when none is selected.
  const std::string env_name = run.tazuna.environment.empty() ? "default" : run.tazuna.environment;
  util::Result<std::string> rendered = RenderHelmfileTemplate(*text, vars, env_name, run.file);
  if (!rendered) return rendered.error();
  util::YamlOptions options;
  options.source_name = run.file;
  util::Result<json> state = util::ParseYamlDocument(*rendered, options);
  if (!state) return state.error();
  if (!state->is_object()) return HfError(run.file, "must hold a mapping with releases");
  for (const auto& [key, value] : state->items()) {
    if (key == "releases" || key == "repositories") continue;
    return HfError(run.file, util::StrCat(util::Quote(key), " is not supported without the helmfile binary ",
                                          "(supported: releases, repositories)"));
  }
  if (const auto repos = state->find("repositories"); repos != state->end() && repos->is_array()) {
    for (const json& repo : *repos) {
      if (repo.is_object()) run.repositories[StringOf(repo, "name")] = StringOf(repo, "url");
    }
  }
  return state;
}

util::Result<Documents> RenderWithHelm(HelmfileRun& run, const json& vars, RenderContext& ctx) {
  util::Result<json> state = LoadHelmfileState(run, vars, ctx);
  if (!state) return state.error();
  const auto releases = state->find("releases");
  if (releases == state->end() || !releases->is_array()) return HfError(run.file, "releases: required (a list)");
  Documents out;
  for (const json& release : *releases) {
    if (!release.is_object()) return HfError(run.file, "releases[] entries must be mappings");
    const auto installed = release.find("installed");
    if (installed != release.end() && installed->is_boolean() && !installed->get<bool>()) continue;
    util::Result<Documents> docs = TemplateRelease(release, run, ctx);
    if (!docs) return docs.error();
    for (json& doc : *docs) out.push_back(std::move(doc));
  }
  return out;
}

// helm-style --set values: a list as {a,b}, a map as one key.sub=v per entry, anything else as text.
std::vector<std::string> StateValueSets(const std::string& key, const json& value) {
  if (value.is_object()) {
    std::vector<std::string> out;
    for (const auto& [sub, v] : value.items()) {
      for (std::string& s : StateValueSets(key + "." + sub, v)) out.push_back(std::move(s));
    }
    return out;
  }
  if (value.is_array()) {
    std::vector<std::string> items;
    for (const json& v : value) items.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    return {key + "={" + util::Join(items, ",") + "}"};
  }
  return {key + "=" + (value.is_string() ? value.get<std::string>() : value.dump())};
}

// `helmfile template` with vars as --state-values-set. No --environment: helmfile rejects an
// environment its file does not declare, and the Go tool's subset never passed one either.
util::Result<std::string> RunHelmfileBinary(const HelmfileRun& run, const json& vars, RenderContext& ctx) {
  std::vector<std::string> argv = {"helmfile", "--file", run.file};
  std::vector<std::string> display = argv;
  for (const auto& [key, value] : vars.items()) {
    for (const std::string& set : StateValueSets(key, value)) {
      argv.insert(argv.end(), {"--state-values-set", set});
      // Var values may come from 1Password: logs and errors show only the names.
      display.insert(display.end(), {"--state-values-set", set.substr(0, set.find('=')) + "=***"});
    }
  }
  const size_t fixed = argv.size();
  argv.push_back("template");
  if (run.options.include_crds) argv.push_back("--include-crds");
  if (!run.options.kube_version.empty()) argv.insert(argv.end(), {"--kube-version", run.options.kube_version});
  for (const std::string& extra : run.options.extra_value_files) {
    argv.insert(argv.end(), {"--values", util::JoinPath(run.tazuna.dir, extra)});
  }
  display.insert(display.end(), argv.begin() + static_cast<std::ptrdiff_t>(fixed), argv.end());
  return RunTool({argv, "", "", display}, ctx);
}

}  // namespace

util::Result<json> ResolveHelmfileVars(const std::map<std::string, HelmfileVar>& vars, RenderContext& ctx) {
  json out = json::object();
  for (const auto& [name, var] : vars) {
    if (var.from == "env") {
      const std::optional<std::string> value = ctx.env.Get(var.env);
      if (!value) {
        return util::MakeError(util::ErrorKind::kInput, util::StrCat("helmfile.vars.", name, ": environment variable ",
                                                                     util::Quote(var.env), " is not set"));
      }
      out[name] = *value;
    } else if (var.from == "static") {
      out[name] = !var.static_slice.empty() ? json(var.static_slice)
                  : !var.static_map.empty() ? json(var.static_map) : json(var.static_value);
    } else if (var.from == "op") {
      const OpFieldKey key = var.op_key == "id" ? OpFieldKey::kId : OpFieldKey::kLabel;
      util::Result<std::map<std::string, std::string>> item = FetchOpItem(var.op_vault, var.op_item, key, ctx);
      if (!item) return item.error().WithContext(util::StrCat("helmfile.vars.", name));
      auto it = item->find(var.op_field);
      if (it == item->end()) {
        return util::MakeError(util::ErrorKind::kInput,
                               util::StrCat("helmfile.vars.", name, ": field ", util::Quote(var.op_field),
                                            " not found in 1Password item ", util::Quote(var.op_item)));
      }
      out[name] = it->second;
    }
  }
  return out;
}

util::Result<Documents> RenderHelmfile(const std::string& path, const HelmfileOptions& options, const TazunaFile& file,
                                       RenderContext& ctx) {
  util::Result<std::string> helmfile = FindHelmfile(path, ctx);
  if (!helmfile) return helmfile.error();
  util::Result<json> vars = ResolveHelmfileVars(options.vars, ctx);
  if (!vars) return vars.error();
  HelmfileRun run{*helmfile, util::DirName(*helmfile), options, file};
  util::Result<std::string> out = RunHelmfileBinary(run, *vars, ctx);
  if (!out && out.error().kind == util::ErrorKind::kToolMissing) return RenderWithHelm(run, *vars, ctx);
  if (!out) return out.error();
  return ParseDocuments(*out, util::StrCat("helmfile template output of ", *helmfile));
}

}  // namespace tazuna::manifest
