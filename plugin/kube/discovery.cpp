#include "kube/discovery.hpp"

#include <unistd.h>

#include <functional>
#include <set>
#include <thread>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/api_version.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {

const char kAggregatedAccept[] =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
    "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

namespace {

using util::StrCat;

constexpr auto kCacheTtl = std::chrono::hours(6);  // kubectl's discovery cache TTL

std::string Key(const std::string& group, const std::string& version, const std::string& kind) {
  return StrCat(group, "/", version, "/", kind);
}

bool IsAggregated(const DiscoveryResponse& r) {
  return r.content_type.find("as=APIGroupDiscoveryList") != std::string::npos;
}

nlohmann::json ParseBody(const std::string& body) { return nlohmann::json::parse(body, nullptr, false); }

// A discovery answer whose parts are of the wrong type or name no usable path: an error, never a server
// without resources.
util::Error BadDocument(const std::string& what) {
  return util::MakeError(util::ErrorKind::kApi, StrCat("invalid discovery document from the server: ", what));
}

// A group or version the server names becomes one segment of a request path: nothing else may pass.
bool IsPathSegment(const std::string& s) {
  return s.find_first_of("/?#%") == std::string::npos && s != "." && s != "..";
}

// A discovery answer that is not a JSON object (a proxy's HTML page, another service) is an error,
// never a server without resources.
util::Result<nlohmann::json> ParseDiscovery(const DiscoveryResponse& response, const std::string& path) {
  nlohmann::json doc = ParseBody(response.body);
  if (doc.is_object()) return doc;
  return util::MakeError(util::ErrorKind::kApi, StrCat("invalid JSON in the response to GET ", path));
}

// The resources of a legacy APIResourceList answer for `path`: one that is not such a list is an error, never
// a group that serves nothing (whose objects a prune would then think gone).
util::Result<std::vector<ResourceInfo>> ResourceListAt(const DiscoveryResponse& response, const std::string& path) {
  auto doc = ParseDiscovery(response, path);
  if (!doc) return doc.error();
  // Go writes an empty list as null; a missing or other value is not a resource list.
  const auto resources = doc->find("resources");
  if (resources == doc->end() || !(resources->is_array() || resources->is_null())) {
    return BadDocument(StrCat(path, " is not a resource list"));
  }
  return ParseResourceList(*doc);
}

// Sets listable and deletable from a discovery resource's `verbs`.
void ReadVerbs(const nlohmann::json& resource, ResourceInfo& info) {
  const auto verbs = resource.find("verbs");
  if (verbs == resource.end() || !verbs->is_array()) return;
  for (const auto& v : *verbs) {
    info.listable = info.listable || v == "list";
    info.deletable = info.deletable || v == "delete" || v == "deletecollection";
  }
}

}  // namespace

std::vector<ResourceInfo> ParseAggregated(const nlohmann::json& list, std::vector<std::string>* stale) {
  using util::JsonArray, util::JsonString;
  std::vector<ResourceInfo> out;
  for (const auto& group : JsonArray(list, "items")) {
    const std::string name = util::MetaString(group, "name");
    for (const auto& version : JsonArray(group, "versions")) {
      const std::string v = JsonString(version, "version");
      if (stale != nullptr && JsonString(version, "freshness") == "Stale") {
        stale->push_back(name.empty() ? v : StrCat(name, "/", v));
      }
      for (const auto& res : JsonArray(version, "resources")) {
        const std::string kind = JsonString(util::JsonObject(res, "responseKind"), "kind");
        const std::string resource = JsonString(res, "resource");
        if (kind.empty() || resource.empty() || v.empty() || !IsPathSegment(resource)) continue;
        out.push_back({name, v, resource, kind, JsonString(res, "scope") == "Namespaced"});
        ReadVerbs(res, out.back());
      }
    }
  }
  return out;
}

std::vector<ResourceInfo> ParseResourceList(const nlohmann::json& list) {
  std::vector<ResourceInfo> out;
  const auto [group, version] = util::SplitApiVersion(util::JsonString(list, "groupVersion"));
  for (const auto& res : util::JsonArray(list, "resources")) {
    const std::string name = util::JsonString(res, "name");
    const std::string kind = util::JsonString(res, "kind");
    // A subresource ("pods/log") is not an object's collection; an entry without a name or kind is unusable.
    if (name.empty() || kind.empty() || version.empty() || name.find('/') != std::string::npos) continue;
    out.push_back({group, version, name, kind, util::JsonBool(res, "namespaced")});
    ReadVerbs(res, out.back());
  }
  return out;
}

Discovery::Discovery(DiscoveryFetch fetch, std::string cache_dir, std::string host_port, util::Clock& clock)
    : fetch_(std::move(fetch)), clock_(clock) {
  // -v2: resources in discovery's order, with their verbs (older files had neither).
  if (!cache_dir.empty()) cache_file_ = StrCat(cache_dir, "/discovery/", host_port, "/tazuna-resources-v2.json");
}

util::Result<ResourceInfo> Discovery::Resolve(const std::string& api_version, const std::string& kind) {
  const auto [group, version] = util::SplitApiVersion(api_version);
  return Find(by_gvk_, Key(group, version, kind),
              StrCat("no matches for kind ", util::Quote(kind), " in version ", util::Quote(api_version)));
}

util::Result<ResourceInfo> Discovery::ResolveGroupKind(const std::string& group, const std::string& kind) {
  return Find(by_gk_, Key(group, "", kind),
              StrCat("no matches for kind ", util::Quote(kind), " in group ", util::Quote(group)));
}

util::Result<std::vector<std::string>> Discovery::ApiVersions() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!refreshed_) {
    if (auto s = Refresh(); !s) return s.error();
  }
  loaded_ = true;
  std::set<std::string> out;
  for (const auto& [key, info] : by_gvk_) {
    const std::string gv = info.group.empty() ? info.version : StrCat(info.group, "/", info.version);
    out.insert(gv);
    out.insert(StrCat(gv, "/", info.kind));
  }
  return std::vector<std::string>(out.begin(), out.end());
}

util::Result<ServedResources> Discovery::Served() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!refreshed_ || clock_.Now() - last_refresh_ >= kMinRefreshInterval) {
    if (auto s = Refresh(); !s) return s.error();
  }
  loaded_ = true;
  ServedResources out;
  out.stale = stale_;
  std::set<std::string> seen;  // group/resource: the first (preferred) version only
  for (const auto& r : all_) {
    if (seen.insert(StrCat(r.group, "/", r.resource)).second) out.resources.push_back(r);
  }
  return out;
}

util::Result<ResourceInfo> Discovery::Find(const std::map<std::string, ResourceInfo>& index, const std::string& key,
                                           const std::string& not_found) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!loaded_ && !LoadCache()) {
    if (auto s = Refresh(); !s) return s.error();
  }
  loaded_ = true;
  auto it = index.find(key);
  if (it == index.end() && (!refreshed_ || clock_.Now() - last_refresh_ >= kMinRefreshInterval)) {
    // A CRD may have been installed since the cache was written (or a moment ago, during a sync):
    // ask the server again, at most once per kMinRefreshInterval.
    if (auto s = Refresh(); !s) return s.error();
    it = index.find(key);
  }
  if (it == index.end()) return util::MakeError(util::ErrorKind::kNotFound, not_found);
  return it->second;
}

util::Status Discovery::Refresh() {
  std::vector<std::string> stale;
  util::Result<std::vector<ResourceInfo>> all = FetchAll(&stale);
  if (!all) return all.error();
  by_gvk_.clear();
  by_gk_.clear();
  Index(*all);
  stale_ = std::move(stale);
  refreshed_ = true;
  last_refresh_ = clock_.Now();
  SaveCache();
  return util::Ok();
}

util::Result<std::vector<ResourceInfo>> Discovery::FetchAll(std::vector<std::string>* stale) {
  std::vector<ResourceInfo> out;
  auto core = fetch_("/api", kAggregatedAccept);
  if (!core) return core.error();
  auto core_doc = ParseDiscovery(*core, "/api");
  if (!core_doc) return core_doc.error();
  if (IsAggregated(*core)) {
    out = ParseAggregated(*core_doc, stale);
  } else {
    if (!util::JsonField(*core_doc, "versions").is_array()) return BadDocument("/api has no list of versions");
    for (const auto& v : util::JsonArray(*core_doc, "versions")) {
      if (!v.is_string() || !IsPathSegment(v.get<std::string>())) {
        return BadDocument(StrCat("/api names version ", util::Printable(v.dump().substr(0, 80))));
      }
      const std::string path = StrCat("/api/", v.get<std::string>());
      auto list = fetch_(path, "application/json");
      if (!list) return list.error();
      auto resources = ResourceListAt(*list, path);
      if (!resources) return resources.error();
      for (auto& r : *resources) out.push_back(std::move(r));
    }
  }
  auto groups = fetch_("/apis", kAggregatedAccept);
  if (!groups) return groups.error();
  auto groups_doc = ParseDiscovery(*groups, "/apis");
  if (!groups_doc) return groups_doc.error();
  if (IsAggregated(*groups)) {
    for (auto& r : ParseAggregated(*groups_doc, stale)) out.push_back(std::move(r));
  } else if (auto s = FetchLegacyGroups(*groups_doc, &out); !s) {
    return s.error();
  }
  return out;
}

util::Status Discovery::FetchLegacyGroups(const nlohmann::json& group_list, std::vector<ResourceInfo>* out) {
  for (const auto& group : util::JsonArray(group_list, "groups")) {
    for (const auto& v : util::JsonArray(group, "versions")) {
      const std::string group_version = util::JsonString(v, "groupVersion");
      const auto [g, version] = util::SplitApiVersion(group_version);
      if (version.empty() || !IsPathSegment(g) || !IsPathSegment(version)) {
        return BadDocument(StrCat("/apis names group version ", util::Printable(v.dump().substr(0, 80))));
      }
      const std::string path = StrCat("/apis/", group_version);
      auto list = fetch_(path, "application/json");
      if (!list) return list.error();
      auto resources = ResourceListAt(*list, path);
      if (!resources) return resources.error();
      for (auto& r : *resources) out->push_back(std::move(r));
    }
  }
  return util::Ok();
}

void Discovery::Index(const std::vector<ResourceInfo>& resources) {
  // The first entry wins, so the preferred version's resource is kept when kinds repeat.
  all_ = resources;
  for (const auto& r : resources) {
    by_gvk_.emplace(Key(r.group, r.version, r.kind), r);
    by_gk_.emplace(Key(r.group, "", r.kind), r);
  }
}

bool Discovery::LoadCache() {
  if (cache_file_.empty()) return false;
  std::ifstream in(cache_file_);
  if (!in) return false;
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = ParseBody(text.str());
  std::chrono::system_clock::time_point written;
  std::vector<ResourceInfo> resources;
  // A cache file of another shape is ignored (and rewritten), as kubectl ignores a corrupt cache.
  if (!util::ParseRfc3339(util::JsonString(doc, "timestamp"), &written)) return false;
  if (clock_.Now() - written > kCacheTtl) return false;
  for (const auto& r : util::JsonArray(doc, "resources")) {
    using util::JsonString;
    ResourceInfo info{JsonString(r, "group"), JsonString(r, "version"), JsonString(r, "resource"),
                      JsonString(r, "kind"), util::JsonBool(r, "namespaced"), util::JsonBool(r, "listable"),
                      util::JsonBool(r, "deletable")};
    if (info.version.empty() || info.resource.empty() || info.kind.empty()) return false;
    resources.push_back(std::move(info));
  }
  Index(resources);
  return !by_gvk_.empty();
}

void Discovery::SaveCache() const {
  if (cache_file_.empty()) return;
  nlohmann::json resources = nlohmann::json::array();
  for (const auto& r : all_) {  // in discovery's order, so that a load keeps the preferred versions first
    resources.push_back({{"group", r.group}, {"version", r.version}, {"resource", r.resource}, {"kind", r.kind},
                         {"namespaced", r.namespaced}, {"listable", r.listable}, {"deletable", r.deletable}});
  }
  const nlohmann::json doc = {{"timestamp", util::FormatRfc3339(clock_.Now())}, {"resources", resources}};
  // The cache is an optimisation: failing to write it is not an error (kubectl ignores it too).
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(cache_file_).parent_path(), ec);
  // A temporary file of this process and thread: contexts of one cluster in a fleet run (#28) save the
  // same cache file at once, and two writers of one temporary file could mix their documents.
  const std::string tmp = util::StrCat(cache_file_, ".", ::getpid(), ".",
                                       std::hash<std::thread::id>{}(std::this_thread::get_id()), ".tmp");
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return;
    out << doc.dump();
  }
  std::filesystem::rename(tmp, cache_file_, ec);
}

}  // namespace tazuna::kube
