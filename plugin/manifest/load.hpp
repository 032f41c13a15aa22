#pragma once

#include <string>

#include "manifest/model.hpp"
#include "util/file_reader.hpp"
#include "util/result.hpp"

namespace tazuna::manifest {

/// What LoadTazunaFile needs besides the path.
struct LoadOptions {
  std::string environment;   ///< -e; fills {{ .Environment }} and picks spec.environments
  std::string tool_version;  ///< our version, checked against minimumSupportedTazunaVersion.
                             ///< Empty, non-semver, and 0.0.0-* (development builds) skip the check.
};

/// Reads `path`, renders it as a Go text/template with `.Environment` (RenderTazunaTemplate; includes too),
/// parses, expands includes (one level, spliced in place, paths relative to the root file's directory;
/// nested includes rejected), and validates every field: names ^[a-zA-Z0-9_-]+$ and unique after
/// includes, `_metadata` reserved, known type, path, regexes, context_match_mode, -e declared when
/// spec.environments exists, dependsOn (unknown, self, cycle), minimumSupportedTazunaVersion.
/// Unknown fields in the root, spec, manifests and their blocks are errors. Known fields we do not act on
/// (spec.tests, spec.requirements, spec.manifests[].tests) come back in TazunaFile::warnings; an
/// include file's spec other than its manifests is not read, as by the Go tool, and warns of nothing.
/// Errors are kInput `<file>:<line>:<col>: <field>: <message>`; a missing root file is the
/// reader's kNotFound error.
util::Result<TazunaFile> LoadTazunaFile(const std::string& path, const LoadOptions& options, util::FileReader& files);

}  // namespace tazuna::manifest
