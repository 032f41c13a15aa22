#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/context.hpp"
#include "cli/flags.hpp"
#include "cli/fleet_options.hpp"
#include "kube/client.hpp"
#include "kube/config_flags.hpp"

namespace tazuna::cli {

/// Flags shared by every command that talks to a cluster (kubectl's connection flags plus -v).
struct ConnectionOptions {
  kube::ConfigFlags kube;
  int verbosity = 0;
};

/// Flags that pick the tazuna.yaml and the manifests in it.
struct FileOptions {
  std::string file = "tazuna.yaml";
  std::string environment;
  std::vector<std::string> tags;
  std::vector<std::string> manifests;
  bool oras_offline = false;   ///< --offline: ORAS artifacts from the cache only (kAll)
  bool oras_no_cache = false;  ///< --no-cache: ORAS artifacts fetched again (kAll)
};

/// Which of the file flags a command takes.
/// kFileManifestAndEnvironment: -f, -m and -e (-e fills {{ .Environment }} where manifest names use it);
/// kAll: also -t, and --offline/--no-cache for ORAS artifacts (the commands that render).
enum class FileFlags { kFileManifestAndEnvironment, kAll };

void AddConnectionFlags(FlagSet& flags, ConnectionOptions& options);
void AddFileFlags(FlagSet& flags, FileOptions& options, FileFlags which);
/// `--no-render-cache`: render every manifest, reading and writing no render cache (cached_render.hpp).
void AddRenderCacheFlag(FlagSet& flags, bool& no_render_cache);
/// `--verify-render-cache`: render what the caches would skip as well, and fail when it differs (CheckSkippedRenders).
void AddVerifyRenderCacheFlag(FlagSet& flags, bool& verify);
/// `-o/--output` with the given default.
void AddOutputFlag(FlagSet& flags, std::string& output, const std::string& allowed);
/// `-o/--output` and `--no-headers`, for the commands that print tables.
void AddTableOutputFlags(FlagSet& flags, std::string& output, bool& no_headers, const std::string& allowed);
/// The flags that say which clusters a command reaches: `--no-render-cache` (when the command renders: given
/// `no_render_cache`), the connection flags and the fleet flags.
void AddClusterFlags(FlagSet& flags, ConnectionOptions& connection, FleetOptions& fleet, bool* no_render_cache);

/// A resolved connection to the cluster, owned by one command run.
struct Session {
  Session(std::ostream& err, int verbosity) : log(err, verbosity) {}
  util::Logger log;
  std::unique_ptr<kube::Transport> transport;
  std::unique_ptr<kube::Client> client;
};

/// Resolves kubeconfig and flags and opens the client (no request is sent yet).
util::Result<std::unique_ptr<Session>> OpenSession(Context& ctx, const ConnectionOptions& options);

}  // namespace tazuna::cli
