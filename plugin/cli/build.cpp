// kubectl tazuna build [-f FILE] [-e ENV] [-t TAG,...] [-m NAME]... [--show-secrets]
#include "cli/build.hpp"

#include "cli/build_info.hpp"
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

// The session of the cluster the kubeconfig reaches (one GET /version), else null: no kubeconfig, or a
// server that does not answer. Either is fine for build, which then renders offline (said at -v 2).
std::unique_ptr<Session> ReachableCluster(Context& ctx, const ConnectionOptions& connection, util::Logger& log) {
  auto session = OpenSession(ctx, connection);
  if (!session) {
    log.Log(2, "no cluster (" + session.error().message + "): charts render for Kubernetes " +
                   std::string(BuildKubeVersion()));
    return nullptr;
  }
  if (auto version = (*session)->client->GetPath("/version"); !version) {
    log.Log(2, "cluster unreachable (" + version.error().message + "): charts render for Kubernetes " +
                   std::string(BuildKubeVersion()));
    return nullptr;
  }
  return std::move(*session);
}

}  // namespace

util::Status BuildOptions::Complete(Context&, const FlagSet&) { return util::Ok(); }

util::Status BuildOptions::Validate() const { return util::Ok(); }

util::Result<int> BuildOptions::Run(Context& ctx) {
  auto selection = LoadSelection(ctx, file);
  if (!selection) return selection.error();
  util::Logger log(ctx.err, connection.verbosity);
  const std::unique_ptr<Session> cluster = ReachableCluster(ctx, connection, log);
  kube::Client* client = cluster ? cluster->client.get() : nullptr;
  auto run = RenderSelection(ctx, *selection, log, client, {!no_render_cache});
  if (!run) return run.error();
  if (VerifyRenderCache(verify_render_cache, ctx.env) && !no_render_cache) {
    auto fresh = RenderSelection(ctx, *selection, log, client, {false, nullptr});
    if (!fresh) return fresh.error();
    if (auto st = CheckSkippedRenders(run->manifests, fresh->manifests, log); !st) return st.error();
  }
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
  Command c = Describe("build", "Render the manifests of tazuna.yaml as YAML", LongDesc(R"(
      Render the selected manifests and print their objects as multi-document YAML, in apply order
      (Namespaces, CRDs, then the rest). Secret values are masked unless --show-secrets. No cluster is needed:
      when the kubeconfig reaches one, charts render for its version and APIs (as state diff and sync
      render them); otherwise for Kubernetes )" + std::string(BuildKubeVersion()) +
                         R"(, the version this plugin is built against.
  )"));
  c.examples = Examples(R"(
      # Render everything
      kubectl tazuna build

      # Only manifests tagged infra, for the staging environment
      kubectl tazuna build -t infra -e staging
  )");
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kAll);
    f.Bool(&o->show_secrets, "show-secrets", 0, "Print Secret values instead of ***.");
    AddRenderCacheFlag(f, o->no_render_cache);
    AddVerifyRenderCacheFlag(f, o->verify_render_cache);
    AddConnectionFlags(f, o->connection);
  };
  c.run = RunOptions(o);
  return c;
}

}  // namespace tazuna::cli
