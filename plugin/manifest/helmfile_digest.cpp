// What a helmfile manifest's render reads, named so that an equal digest means an equal render (DigestInputs).
// Only the subset this project reads itself (releases and repositories; helmfile_subset.cpp) is named: the real
// helmfile renders the same file the same way, and anything beyond the subset (environments, bases, hooks,
// secrets, values templates) could read what no digest of files covers, so it is rendered every time.
#include <algorithm>
#include <filesystem>

#include "manifest/chart_functions.hpp"
#include "manifest/digest_files.hpp"
#include "manifest/helmfile.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"
#include "util/yaml_json.hpp"

namespace tazuna::manifest {
namespace {

using nlohmann::json;

// Every file of the chart at `real`, named relative to it, for ImpureRenderReason; one that cannot be read is
// left to WithFiles, which fails on it.
LocalChartFiles ReadChart(const std::string& name, const std::string& real, util::FileReader& files) {
  LocalChartFiles chart{name, {}};
  auto listed = files.ListFilesRecursive(real);
  if (!listed) return chart;
  for (const std::string& path : *listed) {
    if (path.find("/.git/") != std::string::npos) continue;
    const std::string rel = util::StartsWith(path, real + "/") ? path.substr(real.size() + 1) : path;
    if (auto text = files.ReadFile(path)) chart.files.push_back({rel, std::move(*text)});
  }
  return chart;
}

// What the release gives helm as values, as texts tpl may render: its values files (one that cannot be read is
// left to File), inline values and set entries, and the entry's extra values files (helmfile --values).
std::vector<ChartText> ReleaseValues(const json& release, const HelmfileRun& run, util::FileReader& files) {
  std::vector<ChartText> out;
  auto add_file = [&](const std::string& name, const std::string& path) {
    if (auto text = files.ReadFile(path)) out.push_back({name, std::move(*text)});
  };
  const json values = release.value("values", json::array());
  for (const json& entry : values.is_array() ? values : json::array()) {
    if (entry.is_string()) add_file(entry.get<std::string>(), util::CleanJoin(run.dir, entry.get<std::string>()));
    if (entry.is_object()) out.push_back({"inline values", entry.dump()});
  }
  for (const std::string& extra : run.extra_values) add_file(extra, extra);
  if (release.contains("set")) out.push_back({"set", release["set"].dump()});
  return out;
}

// The inputs of one helmfile render, collected from its state; `reason` once one cannot be named.
class HelmfileInputs {
 public:
  HelmfileInputs(RenderContext& ctx, std::string root) : ctx_(ctx), root_(std::move(root)) {}
  void State(const std::vector<json>& docs, const HelmfileRun& run);
  void File(const std::string& path, const std::string& what);
  void Dir(const std::string& dir, const std::string& what);
  const std::set<std::string>& files() const { return files_; }
  const std::string& lines() const { return lines_; }
  const std::string& reason() const { return reason_; }

 private:
  void Release(const json& release, const HelmfileRun& run, const json& repositories);
  void Remote(const std::string& chart);
  void LocalChart(const std::string& path, int depth);
  void Dependency(const json& dep, const std::string& chart, const std::string& dir, int depth);
  void Fail(std::string reason) {
    if (reason_.empty()) reason_ = "helmfile: " + std::move(reason);
  }

  RenderContext& ctx_;
  std::string root_;
  std::set<std::string> files_, dirs_;
  std::vector<LocalChartFiles> charts_;  // every local chart read so far, for ImpureRenderReason
  std::string lines_, reason_;
};

void HelmfileInputs::State(const std::vector<json>& docs, const HelmfileRun& run) {
  if (docs.size() > 1) return Fail("a helmfile of several YAML documents is not read by the digest");
  const json state = docs.empty() || docs.front().is_null() ? json::object() : docs.front();
  if (!state.is_object()) return Fail(util::Quote(run.file) + " does not hold a mapping");
  for (const auto& [key, value] : state.items()) {
    if (key != "releases" && key != "repositories") return Fail(util::Quote(key) + " is not read by the digest");
  }
  json repositories = json::object();
  for (const json& repo : state.value("repositories", json::array())) {
    if (!repo.is_object()) continue;
    repositories[StringOf(repo, "name")] = StringOf(repo, "url") + " oci=" + StringOf(repo, "oci");
  }
  const json releases = state.value("releases", json::array());
  if (!releases.is_array()) return Fail("releases: must be a list");
  for (const json& release : releases) {
    if (!release.is_object()) return Fail("releases[] entries must be mappings");
    Release(release, run, repositories);
  }
}

void HelmfileInputs::Release(const json& release, const HelmfileRun& run, const json& repositories) {
  for (const auto& [key, value] : release.items()) {
    if (!IsSubsetReleaseKey(key)) return Fail(util::StrCat("releases[].", key, " is not read by the digest"));
  }
  const json sets = release.value("set", json::array());
  for (const json& set : sets.is_array() ? sets : json::array()) {
    if (!set.is_object()) continue;  // helm and the subset refuse it
    for (const auto& [key, value] : set.items()) {
      if (key != "name" && key != "value" && key != "values") {  // set[].file: --set-file reads a file
        return Fail(util::StrCat("releases[].set[].", key, " is not read by the digest"));
      }
    }
  }
  const std::string chart = StringOf(release, "chart");
  const size_t slash = chart.find('/');
  if (util::StartsWith(chart, "oci://")) {
    Remote(chart);
  } else if (slash != std::string::npos && repositories.contains(chart.substr(0, slash))) {
    Remote(chart);
  } else {
    LocalChart(util::JoinPath(run.dir, chart), 0);
    // Charts of earlier releases too: a chart read before is not read again, and checking more only costs renders.
    const std::string impure = ImpureRenderReason(charts_, ReleaseValues(release, run, ctx_.files));
    if (!impure.empty()) return Fail(impure);
  }
  const json values = release.value("values", json::array());
  for (const json& entry : values.is_array() ? values : json::array()) {
    if (!entry.is_string()) continue;  // an inline mapping: in the helmfile's own text
    const std::string name = entry.get<std::string>();
    if (util::EndsWith(name, ".gotmpl")) return Fail(util::StrCat("values template ", util::Quote(name), " (helmfile renders it)"));
    File(util::JoinPath(run.dir, name), "values file");
  }
}

// A chart from a repository (even at an exact version) or oci://: its templates are not read without fetching it,
// so a random value or a certificate it makes would be a stale answer. Vendor it into the repository to skip it.
void HelmfileInputs::Remote(const std::string& chart) {
  Fail(util::StrCat("chart ", util::Quote(chart), " comes from a repository: its templates are not read by the digest"));
}

// A chart in the repository: every file of it (by content, and as texts for ImpureRenderReason), and the local
// charts its dependencies name (file://); a dependency fetched from a repository renders every time.
void HelmfileInputs::LocalChart(const std::string& path, int depth) {
  const std::string real = RealPath(path);
  if (real.empty()) return Fail(util::StrCat("chart ", util::Quote(path), " names nothing here or in a repository"));
  if (depth > 16) return Fail("chart dependencies nest too deep");
  if (!ctx_.files.IsDirectory(real)) {
    return Fail(util::StrCat("chart ", util::Quote(path), " is an archive: its templates are not read",
                             " by the digest"));
  }
  if (dirs_.count(real) > 0) return;
  Dir(real, "chart");
  charts_.push_back(ReadChart(path, real, ctx_.files));
  // Dependencies: in Chart.yaml (apiVersion v2) or requirements.yaml (v1).
  for (const char* name : {"Chart.yaml", "requirements.yaml"}) {
    auto text = ctx_.files.ReadFile(util::JoinPath(real, name));
    if (!text) continue;  // helm says what is wrong with a chart without Chart.yaml
    util::YamlOptions options;
    options.source_name = util::JoinPath(real, name);
    util::Result<json> doc = util::ParseYamlDocument(*text, options);
    if (!doc || !(doc->is_object() || doc->is_null())) return Fail(util::Quote(options.source_name) + " does not parse");
    const json deps = doc->is_object() ? doc->value("dependencies", json::array()) : json::array();
    for (const json& dep : deps.is_array() ? deps : json::array()) Dependency(dep, path, real, depth);
  }
}

void HelmfileInputs::Dependency(const json& dep, const std::string& chart, const std::string& dir, int depth) {
  if (!dep.is_object()) return;
  const std::string repository = StringOf(dep, "repository");
  if (util::StartsWith(repository, "file://")) {
    LocalChart(util::JoinPath(dir, repository.substr(7)), depth + 1);
  } else if (!repository.empty()) {  // fetched by helm dependency build, as an archive the digest does not open
    Fail(util::StrCat("chart ", util::Quote(chart), " depends on ", util::Quote(StringOf(dep, "name")),
                      " from a repository: its templates are not read by the digest"));
  }
}

void HelmfileInputs::File(const std::string& path, const std::string& what) {
  const std::string real = RealPath(path);
  if (real.empty()) return Fail(util::StrCat(what, " ", util::Quote(path), " does not exist"));
  if (!PathInside(real, root_)) return Fail(util::StrCat(what, " ", util::Quote(path), " leaves the repository"));
  if (ctx_.files.IsDirectory(real)) return Dir(real, what);
  files_.insert(real);
}

void HelmfileInputs::Dir(const std::string& dir, const std::string& what) {
  if (!PathInside(dir, root_)) return Fail(util::StrCat(what, " ", util::Quote(dir), " leaves the repository"));
  if (!dirs_.insert(dir).second) return;
  auto listed = ctx_.files.ListFilesRecursive(dir);
  if (!listed) return Fail(listed.error().message);
  for (const std::string& f : *listed) {
    if (f.find("/.git/") != std::string::npos) continue;
    const std::string real = RealPath(f);
    files_.insert(real.empty() ? f : real);
  }
}

// The entry's helmfile block, the environment, and what helm renders charts for.
std::string OptionLines(const HelmfileOptions& o, const TazunaFile& file, RenderContext& ctx) {
  std::string text = util::StrCat("helmfile.defaultNamespace ", o.default_namespace, "\nincludeCRDs ", o.include_crds,
                                  "\nextraValueFiles ", util::Join(o.extra_value_files, ","), "\nenvironment ",
                                  file.environment, "\n");
  if (!o.kube_version.empty()) return text + "kubeVersion " + o.kube_version + "\n";
  if (const std::optional<Capabilities> caps = ctx.capabilities ? ctx.capabilities() : std::nullopt) {
    std::vector<std::string> apis = caps->api_versions;
    std::sort(apis.begin(), apis.end());
    return util::StrCat(text, "cluster ", caps->kube_version, " ", util::Join(apis, ","), "\n");
  }
  return text + "defaultKubeVersion " + ctx.default_kube_version + "\n";
}

// The variables helm and helmfile read themselves (HELM_*, HELMFILE_*), by a hash of their value (the
// helmfile's template reads none: RenderHelmfileTemplate has no env).
std::string EnvLines(const util::Environment& env, bool& private_inputs) {
  std::set<std::string> names;
  for (const auto& [name, value] : env.vars()) {
    if (util::StartsWith(name, "HELM_") || util::StartsWith(name, "HELMFILE_")) names.insert(name);
  }
  std::string text;
  for (const std::string& name : names) {
    const std::optional<std::string> value = env.Get(name);
    if (value) private_inputs = true;
    text += util::StrCat("env ", name, " ", value ? util::Sha256Hex(*value) : "unset", "\n");
  }
  return text;
}

}  // namespace

InputDigest DigestHelmfile(const Manifest& m, const TazunaFile& file, RenderContext& ctx) {
  for (const auto& [name, var] : m.helmfile.vars) {
    if (var.from == "op") return {"", util::StrCat("helmfile.vars.", name, " comes from 1Password")};
  }
  std::string reason;
  const std::string helm = ToolStamp("helm", ctx.env, reason), helmfile = ToolStamp("helmfile", ctx.env, reason);
  if (!reason.empty()) return {"", "helmfile: " + reason};
  if (helm.empty()) return {"", "helmfile: helm not found on PATH"};
  util::Result<HelmfileRun> run = PrepareHelmfile(util::CleanJoin(file.dir, m.path), m.helmfile, file, ctx, false);
  if (!run) return {"", run.error().message};
  util::Result<std::vector<json>> docs = HelmfileDocuments(*run, ctx);
  if (!docs) return {"", "helmfile: " + docs.error().message};
  const std::string root = RepositoryRoot(file.dir, ctx.files);
  HelmfileInputs inputs(ctx, root);
  inputs.State(*docs, *run);
  inputs.Dir(RealPath(run->dir), "helmfile directory");  // tazuna.hint.yaml among them
  for (const std::string& extra : run->extra_values) inputs.File(extra, "values file");
  if (!inputs.reason().empty()) return {"", inputs.reason()};
  bool private_inputs = std::any_of(m.helmfile.vars.begin(), m.helmfile.vars.end(),
                                    [](const auto& var) { return var.second.from == "env"; });
  const std::string env_lines = EnvLines(ctx.env, private_inputs);
  std::string text = util::StrCat(DigestHeader(m, ctx), OptionLines(m.helmfile, file, ctx), "helm ", helm,
                                  "\nhelmfile ", helmfile, "\nfile ", std::filesystem::path(RealPath(run->file)).lexically_relative(root).string(),
                                  "\nvars ", util::Sha256Hex(run->vars.dump()), "\nextra ", util::Join(run->extra_values, ","),
                                  "\n", env_lines, inputs.lines());
  text = WithFiles(std::move(text), inputs.files(), root, ctx.files, reason);
  InputDigest out = DigestOf(text, reason);
  out.private_inputs = private_inputs;
  return out;
}

}  // namespace tazuna::manifest
