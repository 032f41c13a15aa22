#pragma once

#include <map>
#include <optional>
#include <string>

#include "util/file_reader.hpp"

namespace tazuna::cli {

/// The remotes of a git config file: name -> url (`[remote "origin"] url = ...`), the last url of a
/// remote winning as git's `remote get-url` does. Comments, other sections and other keys are skipped.
std::map<std::string, std::string> ParseGitRemotes(const std::string& config_text);

/// A git work tree found without running git (git may be missing, or refuse a checkout another user
/// owns): its root directory and the remote that names it.
struct GitCheckout {
  std::string root;    ///< absolute path of the work tree
  std::string remote;  ///< url of remote "origin", else of the only remote; "" when none
};

/// Looks for `.git` (a directory, or a file `gitdir: PATH` as in worktrees and submodules) in `dir`
/// (absolute) and each parent, and reads its config (a worktree's config is its common dir's).
/// nullopt when no `.git` is found.
std::optional<GitCheckout> FindGitCheckout(util::FileReader& files, const std::string& dir);

}  // namespace tazuna::cli
