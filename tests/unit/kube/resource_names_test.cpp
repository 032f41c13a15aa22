#include "kube/resource_names.hpp"

#include <doctest/doctest.h>

namespace tazuna::kube {
namespace {

const nlohmann::json kApps = nlohmann::json::parse(R"({
  "kind": "APIResourceList", "groupVersion": "apps/v1",
  "resources": [
    {"name": "deployments", "singularName": "deployment", "namespaced": true, "kind": "Deployment", "shortNames": ["deploy"]},
    {"name": "deployments/scale", "singularName": "", "namespaced": true, "kind": "Scale"},
    {"name": "daemonsets", "singularName": "daemonset", "namespaced": true, "kind": "DaemonSet", "shortNames": ["ds"]}
  ]})");
const nlohmann::json kCore = nlohmann::json::parse(R"({
  "kind": "APIResourceList", "groupVersion": "v1",
  "resources": [
    {"name": "configmaps", "singularName": "configmap", "namespaced": true, "kind": "ConfigMap", "shortNames": ["cm"]},
    {"name": "namespaces", "singularName": "namespace", "namespaced": false, "kind": "Namespace", "shortNames": ["ns"]}
  ]})");

TEST_CASE("resource names: a legacy resource list gives names, singulars and short names, not subresources") {
  const auto apps = ParseNamedResources(kApps);
  REQUIRE(apps.size() == 2);
  CHECK(apps[0].group == "apps");
  CHECK(apps[0].version == "v1");
  CHECK(apps[0].resource == "deployments");
  CHECK(apps[0].singular == "deployment");
  CHECK(apps[0].short_names == std::vector<std::string>{"deploy"});
  CHECK(ParseNamedResources(kCore)[1].namespaced == false);
}

TEST_CASE("resource names: TYPE as kubectl takes it") {
  auto all = ParseNamedResources(kCore);
  const auto apps = ParseNamedResources(kApps);
  all.insert(all.end(), apps.begin(), apps.end());
  const auto kind_of = [&](const std::string& type) {
    auto r = MatchResource(all, type);
    return r ? r->group + "/" + r->kind : std::string("none");
  };
  CHECK(kind_of("deploy") == "apps/Deployment");
  CHECK(kind_of("deployment") == "apps/Deployment");
  CHECK(kind_of("Deployment") == "apps/Deployment");
  CHECK(kind_of("deployments.apps") == "apps/Deployment");
  CHECK(kind_of("deployment.v1.apps") == "apps/Deployment");
  CHECK(kind_of("cm") == "/ConfigMap");
  CHECK(kind_of("configmaps") == "/ConfigMap");
  CHECK(kind_of("ns") == "/Namespace");
  CHECK(kind_of("deployments.batch") == "none");
  CHECK(kind_of("deploys") == "none");
  CHECK(kind_of("scale") == "none");
}

}  // namespace
}  // namespace tazuna::kube
