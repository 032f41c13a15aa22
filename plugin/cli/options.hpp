#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/context.hpp"
#include "cli/flags.hpp"
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
};

/// Which of the file flags a command takes.
/// kFileManifestAndEnvironment: -f, -m and -e (-e fills {{ .Environment }} where manifest names use it);
/// kAll: also -t.
enum class FileFlags { kFileManifestAndEnvironment, kAll };

void AddConnectionFlags(FlagSet& flags, ConnectionOptions& options);
void AddFileFlags(FlagSet& flags, FileOptions& options, FileFlags which);
/// `--no-render-cache`: render every manifest, reading and writing no render cache (cached_render.hpp).
void AddRenderCacheFlag(FlagSet& flags, bool& no_render_cache);
/// `-o/--output` with the given default.
void AddOutputFlag(FlagSet& flags, std::string& output, const std::string& allowed);

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
