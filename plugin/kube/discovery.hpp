#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/clock.hpp"
#include "util/result.hpp"

namespace tazuna::kube {

/// Where a kind lives: the URL segment and the scope; and what may be done to it.
struct ResourceInfo {
  std::string group, version, resource, kind;
  bool namespaced = true;
  bool listable = false;   ///< discovery lists the verb "list"
  bool deletable = false;  ///< "delete" or "deletecollection": a Namespace's deletion deletes these
  /// Equal when they name the same resource the same way (verbs are not part of that).
  bool operator==(const ResourceInfo& o) const {
    return group == o.group && version == o.version && resource == o.resource && kind == o.kind &&
           namespaced == o.namespaced;
  }
};

/// Every resource the server serves, as discovery read from the server (never the disk cache) says.
struct ServedResources {
  /// One per group and resource, at the group's preferred version; subresources left out.
  std::vector<ResourceInfo> resources;
  /// group/versions whose aggregated discovery is Stale (an APIService that does not answer): what
  /// they serve is not known.
  std::vector<std::string> stale;
};

/// A discovery response: status, Content-Type and body.
struct DiscoveryResponse {
  std::string content_type;
  std::string body;
};

/// GETs `path` with `accept`; kApi errors for non-2xx.
using DiscoveryFetch = std::function<util::Result<DiscoveryResponse>(const std::string& path, const std::string& accept)>;

/// The Accept header for aggregated discovery (apidiscovery v2, v2beta1, then plain JSON).
extern const char kAggregatedAccept[];

/// Parses an APIGroupDiscoveryList (aggregated discovery) into resources; subresources skipped. The
/// group/versions marked `freshness: Stale` are appended to `stale` when it is given.
std::vector<ResourceInfo> ParseAggregated(const nlohmann::json& list, std::vector<std::string>* stale = nullptr);
/// Parses a legacy APIResourceList for `group_version`; subresources skipped.
std::vector<ResourceInfo> ParseResourceList(const nlohmann::json& list);

/// Maps apiVersion+kind to resources. Aggregated discovery with a legacy fallback; cached on disk
/// under <cache_dir>/discovery/<host_port>/ for 6 hours like kubectl, and refreshed from the server
/// when a kind is unknown (at most once per second, so CRDs created by this process are found). Thread-safe.
class Discovery {
 public:
  /// `cache_dir` empty: no disk cache. `host_port` names the cache subdirectory.
  Discovery(DiscoveryFetch fetch, std::string cache_dir, std::string host_port, util::Clock& clock);
  /// kNotFound `no matches for kind "K" in version "G/V"` when the server does not serve it.
  util::Result<ResourceInfo> Resolve(const std::string& api_version, const std::string& kind);
  /// Any served version of `group`/`kind` (the preferred one when several are served), for keys whose
  /// own version is no longer served. kNotFound when no version is.
  util::Result<ResourceInfo> ResolveGroupKind(const std::string& group, const std::string& kind);
  /// Every group/version and group/version/Kind the server serves ("v1", "v1/Pod", "apps/v1",
  /// "apps/v1/Deployment"), sorted, read from the server (not the disk cache) once per process:
  /// what helm's --api-versions takes.
  util::Result<std::vector<std::string>> ApiVersions();
  /// Every served resource (see ServedResources), read from the server (again when the last read is over
  /// a second old), so a CRD installed since the disk cache was written, or since this process started,
  /// is never missed.
  util::Result<ServedResources> Served();

 private:
  /// Looks `key` up in `index` (by_gvk_ or by_gk_), refreshing once when it is unknown.
  util::Result<ResourceInfo> Find(const std::map<std::string, ResourceInfo>& index, const std::string& key,
                                  const std::string& not_found);
  util::Status Refresh();
  util::Result<std::vector<ResourceInfo>> FetchAll(std::vector<std::string>* stale);
  util::Status FetchLegacyGroups(const nlohmann::json& group_list, std::vector<ResourceInfo>* out);
  bool LoadCache();
  void SaveCache() const;
  void Index(const std::vector<ResourceInfo>& resources);

  DiscoveryFetch fetch_;
  std::string cache_file_;
  util::Clock& clock_;
  std::mutex mu_;
  bool loaded_ = false, refreshed_ = false;
  std::chrono::system_clock::time_point last_refresh_{};
  static constexpr std::chrono::seconds kMinRefreshInterval{1};
  std::map<std::string, ResourceInfo> by_gvk_;
  std::map<std::string, ResourceInfo> by_gk_;  ///< group/kind -> first (preferred) version seen
  std::vector<ResourceInfo> all_;              ///< as discovery listed them (preferred versions first)
  std::vector<std::string> stale_;             ///< group/versions the last refresh found Stale
};

}  // namespace tazuna::kube
