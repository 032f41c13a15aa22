#include "kube/resource_names.hpp"

#include <algorithm>

#include "util/api_version.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {

namespace {

using util::StrCat;

bool Names(const NamedResource& r, const std::string& name) {
  if (name == r.resource || name == r.singular || name == util::ToLower(r.kind)) return true;
  return std::find(r.short_names.begin(), r.short_names.end(), name) != r.short_names.end();
}

// `rest` after the first '.' of TYPE: the group, or VERSION.GROUP ("" matches any group).
bool InGroup(const NamedResource& r, const std::string& rest) {
  return rest.empty() || rest == r.group || rest == StrCat(r.version, ".", r.group) ||
         (r.group.empty() && rest == r.version);
}

NamedResource FromInfo(const ResourceInfo& info) {
  NamedResource r{info.group, info.version, info.resource, info.kind, util::ToLower(info.kind), {}, info.namespaced};
  return r;
}

}  // namespace

std::vector<NamedResource> ParseNamedResources(const nlohmann::json& list) {
  std::vector<NamedResource> out;
  const auto [group, version] = util::SplitApiVersion(util::JsonString(list, "groupVersion"));
  for (const auto& res : util::JsonArray(list, "resources")) {
    const std::string name = util::JsonString(res, "name");
    const std::string kind = util::JsonString(res, "kind");
    if (name.empty() || kind.empty() || version.empty() || name.find('/') != std::string::npos) continue;
    NamedResource r{group, version, name, kind, util::JsonString(res, "singularName"), {}, util::JsonBool(res, "namespaced")};
    if (r.singular.empty()) r.singular = util::ToLower(kind);
    for (const auto& s : util::JsonArray(res, "shortNames")) {
      if (s.is_string()) r.short_names.push_back(util::ToLower(s.get<std::string>()));
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<NamedResource> MatchResource(const std::vector<NamedResource>& resources, const std::string& type) {
  const std::string lower = util::ToLower(type);
  const size_t dot = lower.find('.');
  const std::string name = lower.substr(0, dot);
  const std::string rest = dot == std::string::npos ? "" : lower.substr(dot + 1);
  for (const auto& r : resources) {
    if (Names(r, name) && InGroup(r, rest)) return r;
  }
  return std::nullopt;
}

util::Result<NamedResource> ResolveResourceType(Client& client, const std::string& type) {
  auto served = client.Served();
  if (!served) return served.error();
  std::vector<NamedResource> known;
  for (const auto& info : served->resources) known.push_back(FromInfo(info));
  if (auto r = MatchResource(known, type)) return *r;
  // Short names and singulars are in the legacy lists only: the core group first, then every other group.
  std::string unread;
  auto core = client.GetPath("/api/v1");
  if (!core) return core.error();
  if (auto r = MatchResource(ParseNamedResources(*core), type)) return *r;
  auto groups = client.GetPath("/apis");
  if (!groups) return groups.error();
  for (const auto& g : util::JsonArray(*groups, "groups")) {
    const std::string gv = util::JsonString(util::JsonObject(g, "preferredVersion"), "groupVersion");
    if (gv.empty()) continue;
    auto list = client.GetPath("/apis/" + gv);
    if (!list) {
      if (unread.empty()) unread = StrCat(gv, ": ", list.error().message);
      continue;
    }
    if (auto r = MatchResource(ParseNamedResources(*list), type)) return *r;
  }
  if (!unread.empty()) {
    return util::MakeError(util::ErrorKind::kApi, StrCat("cannot tell which resource type ", util::Quote(type),
                                                         " is: discovery of ", unread));
  }
  return util::MakeError(util::ErrorKind::kNotFound, StrCat("the server doesn't have a resource type ", util::Quote(type)));
}

}  // namespace tazuna::kube
