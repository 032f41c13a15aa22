#pragma once

#include <string>
#include <vector>

#include "kube/config_flags.hpp"
#include "kube/kubeconfig.hpp"
#include "util/environment.hpp"
#include "util/file_reader.hpp"
#include "util/result.hpp"

namespace tazuna::kube {

/// The merged kubeconfig and the files it came from.
struct LoadedKubeconfig {
  Kubeconfig config;
  std::vector<std::string> files;  ///< files actually read, in precedence order; empty = none found
};

/// Picks and merges files as client-go's loader does: --kubeconfig alone (kInput `stat <p>: no such
/// file or directory` when missing); else KUBECONFIG split on ':' (duplicates, empty and missing entries
/// dropped); else $HOME/.kube/config when it exists. Relative file names are made absolute against $PWD.
util::Result<LoadedKubeconfig> LoadKubeconfig(const ConfigFlags& flags, const util::Environment& env,
                                              util::FileReader& files);

}  // namespace tazuna::kube
