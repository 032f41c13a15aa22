// kubectl tazuna build [-f FILE] [-e ENV] [-t TAG,...] [-m NAME]... [--show-secrets]
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/pipeline.hpp"
#include "util/yaml_emit.hpp"

namespace tazuna::cli {

namespace {

struct BuildOptions {
  FileOptions file;
  bool show_secrets = false;
  int verbosity = 0;
};

// Secret values are masked as kubectl diff does, unless --show-secrets.
nlohmann::json Masked(nlohmann::json object) {
  if (object.value("apiVersion", "") != "v1" || object.value("kind", "") != "Secret") return object;
  for (const char* field : {"data", "stringData"}) {
    if (!object.contains(field) || !object[field].is_object()) continue;
    for (auto& [k, v] : object[field].items()) v = "***";
  }
  return object;
}

util::Result<int> Run(Context& ctx, const BuildOptions& o) {
  auto selection = LoadSelection(ctx, o.file);
  if (!selection) return selection.error();
  util::Logger log(ctx.err, o.verbosity);
  auto run = RenderSelection(ctx, *selection, log, nullptr);  // no cluster needed
  if (!run) return run.error();
  bool first = true;
  for (const auto& m : run->manifests) {
    for (const auto& d : m.objects) {
      if (!first) ctx.out << "---\n";
      first = false;
      ctx.out << util::EmitYaml(o.show_secrets ? d.object : Masked(d.object));
    }
  }
  return kExitOk;
}

}  // namespace

Command NewBuildCommand() {
  auto o = std::make_shared<BuildOptions>();
  Command c;
  c.path = "build";
  c.short_help = "Render the manifests of tazuna.yaml as YAML";
  c.long_help =
      "Render the selected manifests and print their objects as multi-document YAML, in apply order\n"
      "(Namespaces, CRDs, then the rest). Secret values are masked unless --show-secrets. No cluster needed.\n";
  c.examples = "  # Render everything\n  kubectl tazuna build\n\n"
               "  # Only manifests tagged infra, for the staging environment\n  kubectl tazuna build -t infra -e staging\n";
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kAll);
    f.Bool(&o->show_secrets, "show-secrets", 0, "Print Secret values instead of ***.");
    f.Int(&o->verbosity, "v", 'v', "Number for the log level verbosity");
  };
  c.run = [o](Context& ctx, const FlagSet&, const std::vector<std::string>&) { return Run(ctx, *o); };
  return c;
}

}  // namespace tazuna::cli
