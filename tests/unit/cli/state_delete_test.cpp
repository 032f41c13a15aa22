#include "cli/state_delete.hpp"

#include <doctest/doctest.h>

#include "harness.hpp"

namespace tazuna::cli {
namespace {

using Layers = std::vector<std::vector<std::string>>;

manifest::TazunaFile FileOf(const std::vector<std::pair<std::string, std::vector<std::string>>>& manifests) {
  manifest::TazunaFile f;
  for (const auto& [name, deps] : manifests) {
    manifest::Manifest m;
    m.name = name;
    m.depends_on = deps;
    f.manifests.push_back(m);
  }
  return f;
}

TEST_CASE("state delete: the uninstall order is the reverse of dependsOn, read over the whole file") {
  // cni <- operator <- app: app goes first, cni last.
  const auto chain = FileOf({{"cni", {}}, {"operator", {"cni"}}, {"app", {"operator"}}});
  CHECK(UninstallLayers({"cni", "operator", "app"}, &chain) == Layers{{"app"}, {"operator"}, {"cni"}});
  // A dependency through a manifest not uninstalled still orders the two.
  CHECK(UninstallLayers({"cni", "app"}, &chain) == Layers{{"app"}, {"cni"}});
  // Without dependsOn, one layer in the file's order.
  const auto flat = FileOf({{"a", {}}, {"b", {}}});
  CHECK(UninstallLayers({"b", "a"}, &flat) == Layers{{"a", "b"}});
}

TEST_CASE("state delete: states the file does not name join the first layer (their custom resources go first)") {
  const auto chain = FileOf({{"cni", {}}, {"app", {"cni"}}});
  CHECK(UninstallLayers({"retired", "cni", "app"}, &chain) == Layers{{"retired", "app"}, {"cni"}});
  CHECK(UninstallLayers({"x", "y"}, nullptr) == Layers{{"x", "y"}});
  CHECK(UninstallLayers({"gone"}, &chain) == Layers{{"gone"}});
}

TEST_CASE("state delete: Complete and Validate take -m or --orphaned and sync's flag values") {
  using testing::CompleteWith;
  const auto with = [](std::vector<std::string> m, bool orphaned, std::string dry_run = "none", std::string timeout = "5m") {
    return CompleteWith<StateDeleteOptions>([&](StateDeleteOptions& o) {
      o.file.manifests = m;
      o.orphaned = orphaned;
      o.dry_run = dry_run;
      o.timeout = timeout;
    });
  };
  CHECK(with({"web"}, false) == "");
  CHECK(with({"web", "db"}, false, "server", "90s") == "");
  CHECK(with({}, false) == "error: name the manifests to delete with -m, or use --orphaned\n");
  CHECK(with({"web"}, true) == "error: --orphaned and -m/--manifest cannot be used together\n");
  CHECK(with({"web"}, false, "client") ==
        "error: Invalid dry-run value (client). Must be \"none\" or \"server\".\nDid you mean --dry-run=server?\n");
  CHECK(with({"web"}, false, "none", "0s") ==
        "error: invalid --timeout \"0s\": use a duration of at least a second, e.g. 5m or 90s\n");
}

}  // namespace
}  // namespace tazuna::cli
