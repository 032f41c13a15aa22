#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "kube/client.hpp"
#include "kube/rest_config.hpp"
#include "kube/transport.hpp"
#include "util/clock.hpp"
#include "util/environment.hpp"
#include "util/file_reader.hpp"
#include "util/logger.hpp"
#include "util/process.hpp"
#include "util/strings.hpp"

namespace tazuna::kube::testing {

/// In-memory files keyed by path.
struct FakeFiles : util::FileReader {
  std::map<std::string, std::string> files;
  util::Result<std::string> ReadFile(const std::string& path) override {
    auto it = files.find(path);
    if (it == files.end()) {
      return util::MakeError(util::ErrorKind::kNotFound, util::StrCat("open ", path, ": no such file or directory"));
    }
    return it->second;
  }
  bool Exists(const std::string& path) override { return files.count(path) > 0; }
  bool IsDirectory(const std::string&) override { return false; }
  util::Result<std::vector<std::string>> ListFilesRecursive(const std::string&) override {
    return std::vector<std::string>{};
  }
  util::Result<std::vector<std::string>> Glob(const std::string&) override { return std::vector<std::string>{}; }
};

/// A settable clock; SleepFor advances time and records the sleeps.
struct FakeClock : util::Clock {
  std::chrono::system_clock::time_point now = std::chrono::system_clock::time_point(std::chrono::seconds(1767225600));
  std::vector<std::chrono::milliseconds> sleeps;
  std::chrono::system_clock::time_point Now() override { return now; }
  std::chrono::steady_clock::time_point Steady() override {
    return std::chrono::steady_clock::time_point(now.time_since_epoch());
  }
  void SleepFor(std::chrono::milliseconds d) override {
    sleeps.push_back(d);
    now += d;
  }
};

/// Returns canned results in order (the last one repeats) and records requests.
struct FakeProcesses : util::ProcessRunner {
  std::vector<util::Result<util::ProcessResult>> results;
  std::vector<util::ProcessRequest> requests;
  util::Result<util::ProcessResult> Run(const util::ProcessRequest& request) override {
    requests.push_back(request);
    const size_t i = std::min(requests.size(), results.size()) - 1;
    return results.at(i);
  }
};

/// Routes on "METHOD path" (path without query) to queued responses; records every request.
/// Content-Type of an aggregated discovery answer (apidiscovery.k8s.io/v2).
inline constexpr char kAggregatedDiscovery[] = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
/// `/api` as aggregated discovery: ConfigMaps and Secrets (namespaced) and Namespaces (cluster-scoped).
inline constexpr char kCoreDiscovery[] =
    R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":""},"versions":[{"version":"v1","resources":[)"
    R"({"resource":"configmaps","responseKind":{"kind":"ConfigMap"},"scope":"Namespaced"},)"
    R"({"resource":"secrets","responseKind":{"kind":"Secret"},"scope":"Namespaced"},)"
    R"({"resource":"namespaces","responseKind":{"kind":"Namespace"},"scope":"Cluster"}]}]}]})";

struct FakeTransport : Transport {
  /// Computes an answer from the request (a write whose answer is lost, a read of what it stored).
  using Handler = std::function<util::Result<HttpResponse>(const HttpRequest&)>;
  std::mutex mu;
  std::map<std::string, std::vector<util::Result<HttpResponse>>> routes;
  std::map<std::string, Handler> handlers;  ///< by "METHOD path"; checked before routes; must not use `mu`
  std::vector<HttpRequest> requests;
  void Add(const std::string& key, int status, std::string body,
           std::vector<std::pair<std::string, std::string>> headers = {}) {
    routes[key].push_back(HttpResponse{status, std::move(headers), std::move(body)});
  }
  util::Result<HttpResponse> Do(const HttpRequest& req) override {
    std::lock_guard<std::mutex> lock(mu);
    requests.push_back(req);
    std::string path = req.url.substr(req.url.find('/', req.url.find("//") + 2));
    path = path.substr(0, path.find('?'));
    if (auto h = handlers.find(req.method + " " + path); h != handlers.end()) return h->second(req);
    auto it = routes.find(req.method + " " + path);
    if (it == routes.end() || it->second.empty()) return HttpResponse{404, {}, "route not faked: " + path};
    auto r = it->second.front();
    if (it->second.size() > 1) it->second.erase(it->second.begin());
    return r;
  }
};

/// What a Client needs besides its config: fake transport, processes and clock, a logger writing to `err`,
/// an empty environment.
struct FakeClientIo {
  FakeTransport transport;
  FakeProcesses procs;
  FakeClock clock;
  std::ostringstream err;
  util::Logger log{err, 0};
  util::Environment env;
};

/// What a Client needs, faked: a transport that already answers discovery (ConfigMaps, Namespaces; no
/// groups), canned processes, a settable clock, a log into `err`, and a config for https://k.example:6443
/// with a token.
struct ClientParts : FakeClientIo {
  RestConfig config;
  ClientParts() {
    config.server = "https://k.example:6443";
    config.token = "tok";
    transport.Add("GET /api", 200, kCoreDiscovery, {{"Content-Type", kAggregatedDiscovery}});
    transport.Add("GET /apis", 200, R"({"kind":"APIGroupDiscoveryList","items":[]})",
                  {{"Content-Type", kAggregatedDiscovery}});
  }
  /// Requests of `method` for ConfigMaps (discovery left out).
  int Sent(const std::string& method) {
    int n = 0;
    for (const auto& r : transport.requests) n += r.method == method && r.url.find("/configmaps") != std::string::npos;
    return n;
  }
};

/// A kTransport error with this delivery reason (kube/delivery.hpp).
inline util::Error TransportError(const char* reason) {
  util::Error e = util::MakeError(util::ErrorKind::kTransport, std::string("Unable to connect to the server: ") + reason);
  e.reason = reason;
  return e;
}


/// A Client of https://k.example:6443 (token auth) over FakeClientIo; discovery answers `core` for /api and
/// `groups` for /apis.
struct FakeClient : FakeClientIo {
  std::unique_ptr<Client> client;
  explicit FakeClient(const char* core = kCoreDiscovery,
                      const char* groups = R"({"kind":"APIGroupDiscoveryList","items":[]})") {
    RestConfig config;
    config.server = "https://k.example:6443";
    config.token = "t";
    transport.Add("GET /api", 200, core, {{"Content-Type", kAggregatedDiscovery}});
    transport.Add("GET /apis", 200, groups, {{"Content-Type", kAggregatedDiscovery}});
    client = std::make_unique<Client>(config, transport, procs, log, clock, env);
  }
};

}  // namespace tazuna::kube::testing
