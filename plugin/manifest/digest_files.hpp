#pragma once

// The pieces every input digest is made of (input_digest.cpp, helmfile_digest.cpp): where a path really is,
// which repository it belongs to, the renderer binary, the manifest's entry and files by content.

#include <optional>
#include <set>
#include <string>

#include "manifest/input_digest.hpp"
#include "util/environment.hpp"
#include "util/file_reader.hpp"

namespace tazuna::manifest {

/// `path` made absolute and normal (symlinks kept): `.` and `..` removed lexically, as Go's filepath.Clean.
std::string NormalPath(const std::string& path);

/// Where `path` really is: NormalPath, then symlinks resolved, as Go's renderers resolve it (filepath.Join
/// cleans `link/..` away before the kernel sees it; util::CleanJoin); "" when it does not exist.
std::string RealPath(const std::string& path);

/// Whether `path` is `root` or under it (both normal).
bool PathInside(const std::string& path, const std::string& root);

/// The git work tree holding `dir` (a directory with .git), else `dir` itself; symlinks resolved.
std::string RepositoryRoot(const std::string& dir, util::FileReader& files);

/// What a renderer binary is: the SHA-256 of its content, and for helmfile its version (0.x and 1.x read the same
/// helmfile.yaml differently).
struct ToolIdentity {
  std::string sha256, version;
};

/// The identity of the binary at `real`, hashed once per change of its inode (device, inode, size, modification
/// and change times): remembered in the render cache (RenderCache::StoreRecord) and for the rest of the run;
/// nullopt when it cannot be read.
std::optional<ToolIdentity> IdentifyTool(const std::string& real, const std::string& name, const util::Environment& env);

/// The binary a renderer runs for `name` (as util::LookPath finds it): its real path and what it is
/// (IdentifyTool); "" when absent. `reason` is set when it is a script or resolves to a binary of another name (a
/// version manager's shim or proxy picks the real tool from files outside the repository), when it cannot be read,
/// and for a helmfile that is not 1.x.
std::string ToolStamp(const std::string& name, const util::Environment& env, std::string& reason);

/// The lines every digest starts with: this plugin and the manifest's entry as loaded.
std::string DigestHeader(const Manifest& m, const RenderContext& ctx);

/// `text` plus one line per file of `paths` (named relative to `base`), by content; `reason` set when one
/// cannot be read.
std::string WithFiles(std::string text, const std::set<std::string>& paths, const std::string& base,
                      util::FileReader& files, std::string& reason);

/// The digest of `text`, or none with `reason` when one is given.
InputDigest DigestOf(const std::string& text, const std::string& reason);

/// The digest of a helmfile manifest (helmfile_digest.cpp; see DigestInputs).
InputDigest DigestHelmfile(const Manifest& m, const TazunaFile& file, RenderContext& ctx);

/// The digest of a kustomize manifest (kustomize_digest.cpp; see DigestInputs): none, with a `reason` starting
/// `kustomize: `, unless every field of every kustomization and plugin configuration it reaches is one kustomize
/// v5 knows and every file they name is in the repository.
InputDigest DigestKustomize(const Manifest& m, const TazunaFile& file, RenderContext& ctx);

}  // namespace tazuna::manifest
