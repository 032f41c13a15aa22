#include "cli/options.hpp"

#include "cli/build_info.hpp"
#include "kube/rest_config.hpp"

namespace tazuna::cli {

void AddConnectionFlags(FlagSet& flags, ConnectionOptions& o) {
  auto& k = o.kube;
  flags.String(&k.kubeconfig, "kubeconfig", 0, "Path to the kubeconfig file to use for CLI requests.");
  flags.String(&k.context, "context", 0, "The name of the kubeconfig context to use");
  flags.String(&k.cluster, "cluster", 0, "The name of the kubeconfig cluster to use");
  flags.String(&k.user, "user", 0, "The name of the kubeconfig user to use");
  flags.String(&k.namespace_name, "namespace", 'n', "If present, the namespace scope for this CLI request");
  flags.String(&k.server, "server", 's', "The address and port of the Kubernetes API server");
  flags.String(&k.token, "token", 0, "Bearer token for authentication to the API server");
  flags.String(&k.as, "as", 0, "Username to impersonate for the operation.");
  flags.StringArray(&k.as_groups, "as-group", 0, "Group to impersonate for the operation, repeatable.");
  flags.String(&k.as_uid, "as-uid", 0, "UID to impersonate for the operation.");
  flags.String(&k.certificate_authority, "certificate-authority", 0, "Path to a cert file for the certificate authority");
  flags.String(&k.client_certificate, "client-certificate", 0, "Path to a client certificate file for TLS");
  flags.String(&k.client_key, "client-key", 0, "Path to a client key file for TLS");
  flags.OptionalBool(&k.insecure_skip_tls_verify, "insecure-skip-tls-verify",
                     "If true, the server's certificate will not be checked for validity.");
  flags.String(&k.tls_server_name, "tls-server-name", 0, "Server name to use for server certificate validation.");
  flags.String(&k.request_timeout, "request-timeout", 0,
               "The length of time to wait before giving up on a single server request (e.g. 1s, 2m, 3h; 0 = none).");
  flags.String(&k.cache_dir, "cache-dir", 0, "Default cache directory (default ~/.kube/cache)");
  flags.Int(&o.verbosity, "v", 'v', "Number for the log level verbosity");
}

void AddFileFlags(FlagSet& flags, FileOptions& o, FileFlags which) {
  flags.String(&o.file, "file", 'f', "Path to tazuna.yaml.");
  flags.StringArray(&o.manifests, "manifest", 'm', "Only these manifests (repeatable).");
  flags.String(&o.environment, "environment", 'e', "Environment from spec.environments; fills {{ .Environment }}.");
  if (which == FileFlags::kAll) {
    flags.StringSlice(&o.tags, "tags", 't', "Only manifests carrying any of these tags (comma-separated).");
    flags.Bool(&o.oras_offline, "offline", 0,
               "ORAS artifacts from the local cache only: a tag by the digest it last resolved to.");
    flags.Bool(&o.oras_no_cache, "no-cache", 0, "ORAS artifacts resolved, fetched and unpacked again.");
  }
}

void AddRenderCacheFlag(FlagSet& flags, bool& no_render_cache) {
  flags.Bool(&no_render_cache, "no-render-cache", 0,
             "Render every manifest: neither skip one whose inputs are unchanged nor read or write the render cache.");
}

void AddVerifyRenderCacheFlag(FlagSet& flags, bool& verify) {
  flags.Bool(&verify, "verify-render-cache", 0,
             "Also render every manifest the render caches would skip, and fail, naming the manifest, when a render "
             "differs from what the skip would have answered (also TAZUNA_VERIFY_RENDER_CACHE=1).");
}

void AddOutputFlag(FlagSet& flags, std::string& output, const std::string& allowed) {
  flags.String(&output, "output", 'o', "Output format. One of: " + allowed + ".");
}

void AddTableOutputFlags(FlagSet& flags, std::string& output, bool& no_headers, const std::string& allowed) {
  AddOutputFlag(flags, output, allowed);
  flags.Bool(&no_headers, "no-headers", 0, "When using the default or wide output format, don't print headers.");
}

void AddClusterFlags(FlagSet& flags, ConnectionOptions& connection, FleetOptions& fleet, bool* no_render_cache) {
  if (no_render_cache != nullptr) AddRenderCacheFlag(flags, *no_render_cache);
  AddConnectionFlags(flags, connection);
  AddFleetFlags(flags, fleet);
}

util::Result<std::unique_ptr<Session>> OpenSession(Context& ctx, const ConnectionOptions& options) {
  auto config = kube::LoadRestConfig(options.kube, ctx.env, ctx.files);
  if (!config) return config.error();
  auto session = std::make_unique<Session>(ctx.err, options.verbosity);
  session->transport = ctx.make_transport(*config, session->log);
  session->client = std::make_unique<kube::Client>(std::move(*config), *session->transport, ctx.processes,
                                                   session->log, ctx.clock, ctx.env);
  session->client->set_version(BuildVersion(), BuildCommit());
  if (ctx.exec_pool != nullptr) session->client->share_exec_credentials(*ctx.exec_pool);
  return session;
}

}  // namespace tazuna::cli
