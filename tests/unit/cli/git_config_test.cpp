#include "cli/git_config.hpp"

#include <doctest/doctest.h>

#include <set>

#include "../kube/fakes.hpp"

namespace tazuna::cli {
namespace {

// Files, plus the paths that are directories.
struct Tree : kube::testing::FakeFiles {
  std::set<std::string> dirs;
  bool Exists(const std::string& path) override { return dirs.count(path) > 0 || files.count(path) > 0; }
  bool IsDirectory(const std::string& path) override { return dirs.count(path) > 0; }
};

TEST_CASE("git config: remotes and their urls, the last url winning") {
  const std::string text =
      "[core]\n\trepositoryformatversion = 0\n\turl = not-a-remote\n"
      "[remote \"origin\"]\n\turl = git@github.com:org/platform.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
      "# a comment\n[remote \"fork\"]\n\turl = \"https://github.com/me/platform\"\n\turl = https://example.com/x\n"
      "[branch \"main\"]\n\tremote = origin\n";
  CHECK(ParseGitRemotes(text) == std::map<std::string, std::string>{{"fork", "https://example.com/x"},
                                                                   {"origin", "git@github.com:org/platform.git"}});
  CHECK(ParseGitRemotes("").empty());
}

TEST_CASE("git config: the checkout is found above the directory, without running git") {
  Tree t;
  t.dirs = {"/src/.git"};
  t.files["/src/.git/config"] = "[remote \"upstream\"]\n  url = https://git.example/team/platform.git\n";
  auto found = FindGitCheckout(t, "/src/clusters/prod");
  REQUIRE(found);
  CHECK(found->root == "/src");
  CHECK(found->remote == "https://git.example/team/platform.git");  // the only remote stands in for origin
  t.files["/src/.git/config"] += "[remote \"origin\"]\n  url = https://git.example/team/other.git\n";
  CHECK(FindGitCheckout(t, "/src")->remote == "https://git.example/team/other.git");
  CHECK_FALSE(FindGitCheckout(t, "/elsewhere"));
}

TEST_CASE("git config: a worktree's .git file leads to the common config") {
  Tree t;
  t.files["/wt/.git"] = "gitdir: /main/.git/worktrees/wt\n";
  t.files["/main/.git/worktrees/wt/commondir"] = "../..\n";
  t.files["/main/.git/config"] = "[remote \"origin\"]\nurl = https://git.example/org/repo\n";
  auto found = FindGitCheckout(t, "/wt");
  REQUIRE(found);
  CHECK(found->root == "/wt");
  CHECK(found->remote == "https://git.example/org/repo");
}

}  // namespace
}  // namespace tazuna::cli
