// kubectl tazuna build [-f FILE] [-e ENV] [-t TAG,...] [-m NAME]... [--show-secrets]
#include "cli/build.hpp"

#include "cli/pipeline.hpp"
#include "util/secret_mask.hpp"
#include "util/yaml_emit.hpp"

namespace tazuna::cli {

namespace {

// Secret values are masked as kubectl diff does, unless --show-secrets.
nlohmann::json Masked(nlohmann::json object) {
  util::MaskSecretValues(object);
  return object;
}

}  // namespace

util::Status BuildOptions::Complete(Context&, const FlagSet&) { return util::Ok(); }

util::Status BuildOptions::Validate() const { return util::Ok(); }

util::Result<int> BuildOptions::Run(Context& ctx) {
  auto selection = LoadSelection(ctx, file);
  if (!selection) return selection.error();
  util::Logger log(ctx.err, verbosity);
  auto run = RenderSelection(ctx, *selection, log, nullptr);  // no cluster needed
  if (!run) return run.error();
  bool first = true;
  for (const auto& m : run->manifests) {
    for (const auto& d : m.objects) {
      if (!first) ctx.out << "---\n";
      first = false;
      ctx.out << util::EmitYaml(show_secrets ? d.object : Masked(d.object));
    }
  }
  return kExitOk;
}

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
  c.run = RunOptions(o);
  return c;
}

}  // namespace tazuna::cli
