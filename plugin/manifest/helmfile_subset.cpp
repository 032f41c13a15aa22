// helmfile manifests as the Go tazuna renders them: the subset of helmfile.yaml its own renderer reads,
// the file rendered as its template (helmfile_template.cpp), then `helm template` per release. What only
// the helmfile binary renders is kToolMissing, naming it (render_helmfile.cpp then runs helmfile when it
// is installed); tests/e2e/helmfile_test.sh compares the results with real helmfile.
#include <algorithm>
#include <utility>
#include <vector>

#include "manifest/helmfile.hpp"
#include "manifest/helmfile_template.hpp"
#include "manifest/objects.hpp"
#include "manifest/tool.hpp"
#include "util/go_json.hpp"
#include "util/strings.hpp"
#include "util/yaml_json.hpp"

namespace tazuna::manifest {
namespace {

using nlohmann::json;

util::Error HfError(const std::string& file, const std::string& message) {
  return util::MakeError(util::ErrorKind::kInput, util::StrCat(file, ": ", message));
}

// Something helmfile does that this subset does not: refused, with the way out.
util::Error NeedsHelmfile(const std::string& file, const std::string& what) {
  util::Error e = util::MakeError(util::ErrorKind::kToolMissing,
                                  util::StrCat(file, ": ", what, " needs the helmfile binary, which is not on PATH"));
  e.hint = "Install helmfile (go install github.com/helmfile/helmfile, see scripts/lib/install-helmfile) and put it "
           "on PATH; without it only releases and repositories are rendered.";
  return e;
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

util::Result<json> ReleaseValues(const json& release, const HelmfileRun& run, RenderContext& ctx) {
  json merged = json::object();
  const auto values = release.find("values");
  if (values != release.end() && !values->is_null()) {
    if (!values->is_array()) return HfError(run.file, "releases[].values must be a list");
    for (const json& entry : *values) {
      if (entry.is_string() && util::EndsWith(entry.get<std::string>(), ".gotmpl")) {
        return NeedsHelmfile(run.file, util::StrCat("values template ", util::Quote(entry.get<std::string>())));
      }
      if (entry.is_string()) {
        if (util::Status s = MergeValuesFile(util::CleanJoin(run.dir, entry.get<std::string>()), merged, ctx); !s) return s.error();
      } else if (entry.is_object()) {
        MergeValues(merged, entry);
      } else if (!entry.is_null()) {
        return HfError(run.file, "releases[].values entries must be file paths or mappings");
      }
    }
  }
  for (const std::string& extra : run.extra_values) {
    if (util::Status s = MergeValuesFile(extra, merged, ctx); !s) return s.error();
  }
  return merged;
}

// helmfile's escape of --set names and values: { } and , are helm's list and separator syntax.
std::string EscapeSet(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '{' || c == '}' || c == ',') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

// A release's `set` entries as helmfile passes them: name=value, name={a,b}; empty values are skipped.
util::Result<std::vector<std::string>> SetArgs(const json& release, const std::string& file) {
  std::vector<std::string> argv;
  const auto sets = release.find("set");
  if (sets == release.end() || sets->is_null()) return argv;
  if (!sets->is_array()) return HfError(file, "releases[].set must be a list");
  for (const json& set : *sets) {
    if (!set.is_object()) return HfError(file, "releases[].set entries must be mappings");
    for (const auto& [key, v] : set.items()) {
      if (key != "name" && key != "value" && key != "values") return NeedsHelmfile(file, "releases[].set[]." + key);
    }
    const std::string name = EscapeSet(StringOf(set, "name")), value = StringOf(set, "value");
    if (!value.empty()) {
      argv.insert(argv.end(), {"--set", name + "=" + EscapeSet(value)});
    } else if (const auto values = set.find("values"); values != set.end() && values->is_array() && !values->empty()) {
      std::vector<std::string> items;
      for (const json& v : *values) items.push_back(EscapeSet(v.is_string() ? v.get<std::string>() : StringOf(json{{"v", v}}, "v")));
      argv.insert(argv.end(), {"--set", name + "={" + util::Join(items, ",") + "}"});
    }
  }
  return argv;
}

// Local path, oci:// reference, or REPO/CHART through spec.repositories (`--repo URL CHART`).
std::vector<std::string> ChartArgs(const std::string& chart, const HelmfileRun& run, const json& repositories) {
  if (util::StartsWith(chart, "oci://")) return {chart};
  const size_t slash = chart.find('/');
  if (slash != std::string::npos && repositories.contains(chart.substr(0, slash))) {
    return {chart.substr(slash + 1), "--repo", repositories[chart.substr(0, slash)].get<std::string>()};
  }
  return {util::CleanJoin(run.dir, chart)};
}

util::Status CheckReleaseKeys(const json& release, const std::string& file) {
  for (const auto& [key, value] : release.items()) {
    if (!IsSubsetReleaseKey(key)) return NeedsHelmfile(file, "releases[]." + key);
  }
  return util::Ok();
}

std::vector<std::string> CapabilityArgs(const HelmfileRun& run, RenderContext& ctx) {
  if (!run.options.kube_version.empty()) return {"--kube-version", run.options.kube_version};
  std::vector<std::string> argv;
  if (const std::optional<Capabilities> caps = ctx.capabilities ? ctx.capabilities() : std::nullopt) {
    // As the Go tool: the cluster's version and every GroupVersion(/Kind) it serves.
    argv.insert(argv.end(), {"--kube-version", caps->kube_version});
    for (const std::string& v : caps->api_versions) argv.insert(argv.end(), {"--api-versions", v});
  } else if (!ctx.default_kube_version.empty()) {
    argv.insert(argv.end(), {"--kube-version", ctx.default_kube_version});
  }
  return argv;
}

util::Result<Documents> TemplateRelease(const json& release, const HelmfileRun& run, const json& repositories,
                                        RenderContext& ctx) {
  if (util::Status s = CheckReleaseKeys(release, run.file); !s) return s.error();
  const std::string name = StringOf(release, "name"), chart = StringOf(release, "chart");
  if (name.empty() || chart.empty()) return HfError(run.file, "every release needs name and chart");
  util::Result<json> values = ReleaseValues(release, run, ctx);
  if (!values) return values.error();
  util::Result<std::vector<std::string>> sets = SetArgs(release, run.file);
  if (!sets) return sets.error();
  const std::string ns = ReleaseNamespace(StringOf(release, "namespace"), run.options);
  std::vector<std::string> argv = {"helm", "template", name};
  for (std::string& a : ChartArgs(chart, run, repositories)) argv.push_back(std::move(a));
  argv.insert(argv.end(), {"--namespace", ns});
  if (const std::string v = StringOf(release, "version"); !v.empty()) argv.insert(argv.end(), {"--version", v});
  // helm install --dry-run's release.Manifest, which the Go tool applies, holds no hooks.
  argv.push_back("--no-hooks");
  if (run.options.include_crds) argv.push_back("--include-crds");
  for (std::string& a : CapabilityArgs(run, ctx)) argv.push_back(std::move(a));
  // Values go through stdin: they may hold secrets from op vars and must not touch the disk.
  argv.insert(argv.end(), {"--values", "-"});
  argv.insert(argv.end(), sets->begin(), sets->end());
  util::Result<std::string> out = RunTool({argv, "", values->dump(), {}, {}}, ctx);
  if (!out && out.error().kind == util::ErrorKind::kToolMissing) {
    return util::MakeError(util::ErrorKind::kToolMissing, "helmfile: neither \"helmfile\" nor \"helm\" found on PATH");
  }
  if (!out) return out.error();
  const std::string source = util::StrCat("helm template output of release ", util::Quote(name));
  auto docs = ParseDocuments(*out, source);
  if (!docs) return docs.error();
  // Where `helm install --namespace` puts objects that name none: the release's own namespace, else
  // the manifest's defaultNamespace (set later by Render), else the context's at apply time.
  return TargetNamespace(std::move(*docs), StringOf(release, "namespace"), source, ctx);
}

}  // namespace

std::string StringOf(const json& obj, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  return it->is_number_float() ? util::FormatGoFloat64(it->get<double>()) : it->dump();
}

bool IsSubsetReleaseKey(const std::string& key) {
  static const std::vector<std::string> kAllowed = {"name", "namespace", "chart", "version", "values", "set", "labels",
                                                    "installed", "createNamespace", "wait", "timeout"};
  return std::find(kAllowed.begin(), kAllowed.end(), key) != kAllowed.end();
}

util::Result<std::vector<json>> HelmfileDocuments(const HelmfileRun& run, RenderContext& ctx) {
  util::Result<std::string> text = ctx.files.ReadFile(run.file);
  if (!text) return text.error();
  // As the Go tazuna: every helmfile is a template, whatever its name (helmfile v1 renders only *.gotmpl;
  // a plain helmfile.yaml with no {{ renders the same either way).
  if (text->find("{{") != std::string::npos) {
    if (auto helpers = ctx.files.Glob(util::JoinPath(run.dir, "_*.tpl")); helpers && !helpers->empty()) {
      return NeedsHelmfile(run.file, util::StrCat("helper template ", util::Quote(helpers->front())));
    }
    HelmfileTemplateData data;
    data.values = run.vars;
    data.environment_name = run.tazuna.environment.empty() ? "default" : run.tazuna.environment;
    text = RenderHelmfileTemplate(*text, data, run.file);
    if (!text) return text.error();
  }
  util::YamlOptions options;
  options.source_name = run.file;
  return util::ParseYamlStream(*text, options);
}

namespace {

util::Result<json> LoadHelmfileState(const HelmfileRun& run, RenderContext& ctx) {
  util::Result<std::vector<json>> docs = HelmfileDocuments(run, ctx);
  if (!docs) return docs.error();
  if (docs->size() > 1) return NeedsHelmfile(run.file, "a helmfile of several YAML documents");
  json state = docs->empty() ? json::object() : std::move(docs->front());
  if (state.is_null()) state = json::object();
  if (!state.is_object()) return HfError(run.file, "must hold a mapping with releases");
  for (const auto& [key, value] : state.items()) {
    if (key != "releases" && key != "repositories") return NeedsHelmfile(run.file, util::Quote(key));
  }
  return state;
}

}  // namespace

util::Result<Documents> RenderHelmfileSubset(const HelmfileRun& run, RenderContext& ctx) {
  util::Result<json> state = LoadHelmfileState(run, ctx);
  if (!state) return state.error();
  json repositories = json::object();
  if (const auto repos = state->find("repositories"); repos != state->end() && repos->is_array()) {
    for (const json& repo : *repos) {
      if (repo.is_object()) repositories[StringOf(repo, "name")] = StringOf(repo, "url");
    }
  }
  const auto releases = state->find("releases");
  if (releases == state->end() || releases->is_null()) return Documents{};
  if (!releases->is_array()) return HfError(run.file, "releases: must be a list");
  // In the order `helmfile template --output-dir` leaves them, read back by path (render_helmfile.cpp):
  // by the release's own namespace ("" first), then its name, so both ways give the same objects in
  // the same order.
  std::vector<std::pair<std::pair<std::string, std::string>, const json*>> ordered;
  for (const json& release : *releases) {
    if (!release.is_object()) return HfError(run.file, "releases[] entries must be mappings");
    const auto installed = release.find("installed");
    if (installed != release.end() && installed->is_boolean() && !installed->get<bool>()) continue;
    ordered.push_back({{StringOf(release, "namespace"), StringOf(release, "name")}, &release});
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Documents out;
  for (const auto& [order, release] : ordered) {
    util::Result<Documents> docs = TemplateRelease(*release, run, repositories, ctx);
    if (!docs) return docs.error();
    for (json& doc : *docs) out.push_back(std::move(doc));
  }
  return out;
}

}  // namespace tazuna::manifest
