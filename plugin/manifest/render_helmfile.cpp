// type helmfile: the subset of helmfile_subset.cpp, as the Go tool renders it; the real `helmfile template`
// (when installed) for what only helmfile renders.
// Either way, the namespace of a release is where its objects without one go, as `helm install`
// places them, and hook objects are left out, as the Go tool's helm render leaves them out.
#include <stdlib.h>

#include <filesystem>

#include "manifest/helmfile.hpp"
#include "manifest/hint.hpp"
#include "manifest/objects.hpp"
#include "manifest/tool.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

using nlohmann::json;

// A private directory for `helmfile template --output-dir`, removed with everything in it.
class OutputDir {
 public:
  explicit OutputDir(const util::Environment& env) {
    std::string pattern = util::JoinPath(env.GetOr("TMPDIR", "/tmp"), "tazuna-helmfile.XXXXXX");
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~OutputDir() {
    std::error_code ignored;  // a leftover temp directory is harmless; the render result is what matters
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<std::string> HelmfileArgv(const HelmfileRun& run, const std::string& out_dir, RenderContext& ctx) {
  std::vector<std::string> argv = {"helmfile", "--file", run.file};
  if (!run.tazuna.environment.empty()) argv.insert(argv.end(), {"--environment", run.tazuna.environment});
  // Not --namespace: helmfile's --namespace overrides every release's own namespace. Releases without
  // one get defaultNamespace through HELM_NAMESPACE (RenderWithHelmfile).
  // Var values may come from 1Password: they go through stdin, never argv or disk.
  if (!run.vars.empty()) argv.insert(argv.end(), {"--state-values-file", "/dev/stdin"});
  argv.insert(argv.end(), {"template", "--no-hooks"});
  if (run.options.include_crds) argv.push_back("--include-crds");
  if (!run.options.kube_version.empty()) {
    argv.insert(argv.end(), {"--kube-version", run.options.kube_version});
  } else if (const std::optional<Capabilities> caps = ctx.capabilities ? ctx.capabilities() : std::nullopt) {
    std::vector<std::string> versions;  // as the helm fallback: the cluster's version and what it serves
    for (const std::string& v : caps->api_versions) versions.push_back("--api-versions " + v);
    argv.insert(argv.end(), {"--kube-version", caps->kube_version, "--args", util::Join(versions, " ")});
  } else if (!ctx.default_kube_version.empty()) {
    argv.insert(argv.end(), {"--kube-version", ctx.default_kube_version});
  }
  for (const std::string& path : run.extra_values) {
    argv.insert(argv.end(), {"--values", std::filesystem::absolute(path).lexically_normal().string()});
  }
  argv.insert(argv.end(), {"--output-dir", out_dir, "--output-dir-template",
                           "{{ .OutputDir }}/n-{{ .Release.Namespace }}/r-{{ .Release.Name }}"});
  return argv;
}

// The files helm wrote, under <dir>/n-<release namespace>/r-<release>/..., in path order. A release
// without a namespace ("n-") places its objects in `unset_namespace` (defaultNamespace; empty: the
// context's at apply time), as the fallback does.
util::Result<Documents> ReadOutputDir(const std::string& dir, const std::string& unset_namespace, RenderContext& ctx) {
  Documents out;
  if (!ctx.files.IsDirectory(dir)) return out;  // no release rendered anything
  auto files = ctx.files.ListFilesRecursive(dir);
  if (!files) return files.error();
  for (const std::string& path : *files) {
    const std::string rel = path.substr(std::min(path.size(), dir.size() + 1));
    const std::vector<std::string> parts = util::Split(rel, '/');
    if (parts.size() < 3 || !util::StartsWith(parts[0], "n-") || !util::StartsWith(parts[1], "r-")) continue;
    auto text = ctx.files.ReadFile(path);
    if (!text) return text.error();
    const std::string source = util::StrCat("helmfile template output of release ", util::Quote(parts[1].substr(2)));
    auto docs = ParseDocuments(*text, source);
    if (!docs) return docs.error();
    const std::string ns = parts[0].size() > 2 ? parts[0].substr(2) : unset_namespace;
    auto placed = TargetNamespace(std::move(*docs), ns, source, ctx);
    if (!placed) return placed.error();
    for (json& doc : *placed) out.push_back(std::move(doc));
  }
  return out;
}

// `helmfile template` of the whole file; kToolMissing when helmfile is not installed.
util::Result<Documents> RenderWithHelmfile(const HelmfileRun& run, RenderContext& ctx) {
  const OutputDir dir(ctx.env);
  if (dir.path().empty()) return util::MakeError(util::ErrorKind::kInternal, "helmfile: cannot create a temp dir");
  ToolCall call{HelmfileArgv(run, dir.path(), ctx), "", run.vars.empty() ? "" : run.vars.dump(), {}, {}};
  // A release without a namespace renders with defaultNamespace, else helm's "default", as the fallback
  // does, not with whatever namespace the kubeconfig's context happens to have.
  call.env["HELM_NAMESPACE"] = ReleaseNamespace("", run.options);
  util::Result<std::string> out = RunTool(call, ctx);
  if (!out) return out.error();
  return ReadOutputDir(dir.path(), run.options.default_namespace, ctx);
}

}  // namespace

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

std::string ReleaseNamespace(const std::string& release_namespace, const HelmfileOptions& options) {
  if (!release_namespace.empty()) return release_namespace;
  return options.default_namespace.empty() ? "default" : options.default_namespace;
}

util::Result<Documents> TargetNamespace(Documents docs, const std::string& ns, const std::string& source,
                                        RenderContext& ctx) {
  auto objects = DocumentsToObjects(std::move(docs), source);
  if (!objects) return objects.error();
  SetDefaultNamespace(*objects, ns, ctx.scopes);
  return objects;
}

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

util::Result<HelmfileRun> PrepareHelmfile(const std::string& path, const HelmfileOptions& options,
                                          const TazunaFile& file, RenderContext& ctx, bool warn) {
  util::Result<std::string> helmfile = FindHelmfile(path, ctx);
  if (!helmfile) return helmfile.error();
  util::Result<json> vars = ResolveHelmfileVars(options.vars, ctx);
  if (!vars) return vars.error();
  HelmfileRun run{*helmfile, util::DirName(*helmfile), options, file, std::move(*vars), {}};
  // Beside the helmfile, as the Go tool's documentation places it (its code looks in the parent of a
  // directory path; see the README's differences).
  const std::string hint_path = util::JoinPath(run.dir, kHintFileName);
  if (ctx.files.Exists(hint_path)) {
    util::Result<std::string> text = ctx.files.ReadFile(hint_path);
    if (!text) return text.error();
    util::Result<Hint> hint = ParseHint(*text, hint_path);
    if (!hint) return hint.error();
    if (util::Status s = CheckVarKinds(*hint, options.vars, hint_path); !s) return s.error();
    util::Result<json> merged = ApplyHint(*hint, run.vars, hint_path);
    if (!merged) return merged.error();
    run.vars = std::move(*merged);
  }
  for (const std::string& extra : options.extra_value_files) {
    const std::string here = util::CleanJoin(run.dir, extra), before = util::CleanJoin(file.dir, extra);
    if (!ctx.files.Exists(here) && here != before && ctx.files.Exists(before)) {
      if (warn) {
        ctx.log.Warning(util::StrCat("helmfile.extraValueFiles: ", util::Quote(extra), " is read from the helmfile's directory (",
                                     run.dir, "), as the Go tool reads it; it exists only relative to tazuna.yaml (",
                                     before, "), read from there for now: name it relative to ", run.dir));
      }
      run.extra_values.push_back(before);
    } else {
      run.extra_values.push_back(here);
    }
  }
  return run;
}

util::Result<Documents> RenderHelmfile(const std::string& path, const HelmfileOptions& options, const TazunaFile& file,
                                       RenderContext& ctx) {
  util::Result<HelmfileRun> run = PrepareHelmfile(path, options, file, ctx, true);
  if (!run) return run.error();
  // As the Go tool renders it whenever this project can (so the helmfile binary on PATH changes nothing);
  // the binary only for what the subset cannot render.
  util::Result<Documents> out = RenderHelmfileSubset(*run, ctx);
  if (out || out.error().kind != util::ErrorKind::kToolMissing) return out;
  ctx.log.Log(2, util::StrCat(out.error().message, ": rendering with helmfile template"));
  util::Result<Documents> with_helmfile = RenderWithHelmfile(*run, ctx);
  if (!with_helmfile && with_helmfile.error().kind == util::ErrorKind::kToolMissing) return out;  // why it is needed
  return with_helmfile;
}

}  // namespace tazuna::manifest
