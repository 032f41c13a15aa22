#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/auth.hpp"
#include "kube/discovery.hpp"
#include "kube/rest_config.hpp"
#include "kube/transport.hpp"
#include "util/clock.hpp"
#include "util/environment.hpp"
#include "util/logger.hpp"
#include "util/process.hpp"
#include "util/result.hpp"

namespace tazuna::kube {

/// Identifies one object; an empty namespace_name means the config's namespace for namespaced kinds.
struct ObjectRef {
  std::string api_version, kind, namespace_name, name;
  bool operator==(const ObjectRef&) const = default;
};

enum class DryRun { kNone, kAll };
/// How long a write under a lock may take (Client::set_write_fence).
struct WriteWindow {
  std::chrono::steady_clock::time_point write_by;     ///< a write that starts now ends by then, on the server too
  std::chrono::steady_clock::time_point ends_before;  ///< no write may be inside the server then (a takeover can follow)
};

/// Whether a write first asks the client's write fence (Client::set_write_fence).
enum class Fence { kCheck, kSkip };

/// Per-request settings beyond the config.
struct RequestOptions {
  DryRun dry_run = DryRun::kNone;
  Fence fence = Fence::kCheck;  ///< kSkip: requests of the lock the fence guards (it cannot wait on itself)
  /// No attempt starts after this time, none runs past it, and no retry waits beyond it.
  std::optional<std::chrono::steady_clock::time_point> deadline{};
  /// A create or replace is answered with the object's metadata only (PartialObjectMetadata; a server that
  /// does not know that form sends the whole object): for writers that need only the new resourceVersion.
  bool metadata_answer = false;
};
/// What a List returns: whole objects, or only their metadata (PartialObjectMetadata, much smaller).
/// kMetadataQuiet: metadata, and the server's Warning headers are not printed (a scan the user did not
/// ask for, such as every kind in a Namespace, would otherwise print "v1 Endpoints is deprecated").
enum class ListDetail { kFull, kMetadata, kMetadataQuiet };
enum class Propagation { kDefault, kBackground, kForeground, kOrphan };

/// DeleteOptions preconditions: the server refuses the delete (409 Conflict) unless the live object still
/// has this uid (and, when set, this resourceVersion). Empty fields are not sent.
struct Preconditions {
  std::string uid;
  std::string resource_version;
};

/// Server-side apply parameters.
struct ApplyOptions {
  std::string field_manager = "tazuna";
  bool force = true;
  DryRun dry_run = DryRun::kNone;
  /// Sent in place of the object's own metadata (so a large object is not copied to mark it).
  const nlohmann::json* metadata = nullptr;
  /// ApplyObject: also return the whole object as stored (its status, to judge readiness).
  bool want_object = false;
};

/// The User-Agent sent with every request, shaped as kubectl's own:
/// "kubectl-tazuna/v<version without -suffix> (<os>/<arch>) kubernetes/<first 7 characters of commit>",
/// the platform being util::kBuildPlatform ("linux/amd64", "linux/arm64").
std::string UserAgent(std::string_view version, std::string_view commit);

/// What a server-side apply returned.
struct ApplyResult {
  std::string uid;
  std::string resource_version;
  bool created = false;    ///< the server answered 201 Created
  nlohmann::json object;   ///< the object as stored, with ApplyOptions::want_object only
};

/// API client. All methods are thread-safe. Adds auth (token, tokenFile, basic, exec with its cache;
/// on 401 the credential is refreshed and the request retried once), impersonation headers, the
/// User-Agent, ?timeout= from --request-timeout; prints server Warning headers once each; logs requests
/// at -v 6/7/8 with Authorization and Secret data redacted. API failures come back as kApi errors (see
/// ErrorFromResponse), 401 as kUnauthorized, transport failures as kTransport (reasons: kube/delivery.hpp).
/// Retries, with backoff (kube/retry.hpp): any request the server throttled (429, honouring Retry-After),
/// and any that never reached a server this client has reached before (an apiserver restarting) for up
/// to kUnreachableFor; idempotent requests (Idempotent) also after a connection broke, a stall or a 5xx
/// (GET) / 502-504 (DELETE, apply). POST and PUT are never sent again once they may have reached the
/// server: their error is Unconfirmed and the caller settles it by reading back (WriteSettled).
class Client {
 public:
  /// `transport`, `processes`, `log`, `clock` and `env` must outlive the client.
  Client(RestConfig config, Transport& transport, util::ProcessRunner& processes, util::Logger& log,
         util::Clock& clock, const util::Environment& env);
  const RestConfig& config() const { return config_; }
  /// The clock requests are timed and retried by.
  util::Clock& clock() const { return clock_; }
  /// The log requests are written to.
  util::Logger& log() const { return log_; }
  /// Sets the version and git commit in the User-Agent (default "v0.0.0" and "unknown").
  void set_version(std::string_view version, std::string_view commit) { user_agent_ = UserAgent(version, commit); }
  /// Runs the exec credential plugin through `pool` (see ExecProviderPool); call before the first request.
  void share_exec_credentials(ExecProviderPool& pool) { auth_.ShareExecProviders(pool); }

  /// apiVersion+kind -> resource and scope via discovery; kNotFound `no matches for kind "K" in version "G/V"`.
  util::Result<ResourceInfo> Resolve(const std::string& api_version, const std::string& kind);
  /// Any served version of group/kind (see Discovery::ResolveGroupKind).
  util::Result<ResourceInfo> ResolveGroupKind(const std::string& group, const std::string& kind) {
    return discovery_.ResolveGroupKind(group, kind);
  }
  /// See Discovery::ApiVersions.
  util::Result<std::vector<std::string>> ApiVersions() { return discovery_.ApiVersions(); }
  /// See Discovery::Served.
  util::Result<ServedResources> Served() { return discovery_.Served(); }
  util::Result<nlohmann::json> Get(const ObjectRef& ref) { return Get(ref, RequestOptions{}); }
  util::Result<nlohmann::json> Get(const ObjectRef& ref, const RequestOptions& options);
  /// Every object (apiVersion and kind filled in), paged with limit=500/continue; restarts on 410 Expired.
  /// An empty namespace lists all namespaces.
  util::Result<std::vector<nlohmann::json>> List(const std::string& api_version, const std::string& kind,
                                                 const std::string& namespace_name,
                                                 const std::string& label_selector = "",
                                                 ListDetail detail = ListDetail::kFull);
  /// POST. Never sent again once it may have reached the server (see the class comment).
  util::Result<nlohmann::json> Create(const nlohmann::json& object, DryRun dry_run = DryRun::kNone) {
    return Create(object, RequestOptions{dry_run});
  }
  util::Result<nlohmann::json> Create(const nlohmann::json& object, const RequestOptions& options);
  /// PUT; the object's metadata.resourceVersion is the precondition (409 Conflict if stale). Never sent
  /// again once it may have reached the server.
  util::Result<nlohmann::json> Update(const nlohmann::json& object, DryRun dry_run = DryRun::kNone) {
    return Update(object, RequestOptions{dry_run});
  }
  util::Result<nlohmann::json> Update(const nlohmann::json& object, const RequestOptions& options);
  /// Server-side apply: PATCH application/apply-patch+yaml (JSON body), fieldManager, force, dryRun=All.
  /// Apply, telling whether the object was created and its uid and resourceVersion; unless want_object,
  /// the response is asked for as PartialObjectMetadata and read without building it (a CRD's is large).
  util::Result<ApplyResult> ApplyObject(const nlohmann::json& object, const ApplyOptions& options);
  /// Apply, returning the whole object as stored (or as it would be, for a dry run).
  util::Result<nlohmann::json> Apply(const nlohmann::json& object, const ApplyOptions& options);
  /// PATCH with a JSON patch (RFC 6902, application/json-patch+json) of `operations`; the object as stored.
  /// A `replace` of /metadata/resourceVersion makes it conditional: 409 Conflict when the object changed.
  util::Result<nlohmann::json> JsonPatch(const ObjectRef& ref, const nlohmann::json& operations,
                                         DryRun dry_run = DryRun::kNone);
  util::Status Delete(const ObjectRef& ref, Propagation propagation = Propagation::kDefault,
                      DryRun dry_run = DryRun::kNone, const Preconditions& preconditions = {});
  /// Raw GET of a path such as /version.
  util::Result<nlohmann::json> GetPath(const std::string& path);
  /// Number of HTTP requests sent so far (retries included).
  uint64_t requests_sent() const { return requests_.load(); }
  /// Number of 429 (Too Many Requests) answers seen so far (for adaptive concurrency).
  uint64_t throttled() const { return throttled_.load(); }
  /// Every attempt of a write (any method but GET and HEAD) whose RequestOptions::fence is kCheck first
  /// calls `fence`, retries and waits after 429 included; its error fails the request unsent. Empty: none.
  /// The fence may block (the sync lock waits for a renewal), and must not send fenced requests itself.
  /// `window`, when given (it must not block), says how long a write that starts now may take (nullopt: the
  /// lock is not held now): its ?timeout= and client deadline end by write_by, less kWriteSlack, so the server
  /// gives up on it before another holder could take the lock. The transport asks again right before the write
  /// goes on the wire (after any wait for a connection): one whose server-side timeout, counted from then, would
  /// reach past ends_before stays unsent, and the attempt starts over at the fence.
  void set_write_fence(std::function<util::Status()> fence, std::function<std::optional<WriteWindow>()> window = {});
  /// How much of a fenced write's bound is kept back for the time between building it and the server reading it.
  static constexpr std::chrono::milliseconds kWriteSlack{500};

 private:
  struct Call {
    std::string method, path;
    std::vector<std::pair<std::string, std::string>> query;
    std::string body, content_type, accept = "application/json";
    bool quiet = false;  ///< the server's Warning headers are not printed
    Fence fence = Fence::kCheck;
    std::optional<std::chrono::steady_clock::time_point> deadline{};
  };
  /// What one request has been through so far (Send's retry budget).
  struct Attempts {
    int failures = 0;   ///< retries after broken connections and 5xx
    int throttled = 0;  ///< retries after 429
    int unreachable = 0;  ///< retries after the server could not be reached
    int withheld = 0;     ///< attempts the write fence's guard kept unsent
    bool refreshed = false;
    std::optional<std::chrono::steady_clock::time_point> unreachable_since;
    std::optional<std::chrono::steady_clock::time_point> throttled_since;
  };
  util::Result<HttpResponse> Send(const Call& call);
  util::Status BeforeAttempt(const Call& call);
  std::optional<std::chrono::milliseconds> RetryAnswer(const Call& call, const HttpResponse& resp,
                                                       const RequestCredentials& used, Attempts& a);
  std::optional<std::chrono::milliseconds> RetryFailure(const Call& call, const util::Error& e, Attempts& a);
  util::Result<HttpResponse> SendOnce(const Call& call, RequestCredentials* used);
  /// `bound`: a fenced write's time limit (?timeout= and the client deadline), when shorter than the config's.
  HttpRequest Build(const Call& call, const RequestCredentials& creds,
                    std::optional<std::chrono::milliseconds> bound = std::nullopt) const;
  util::Result<nlohmann::json> SendJson(const Call& call);
  util::Result<nlohmann::json> SendWrite(const char* method, const nlohmann::json& object,
                                        const RequestOptions& options);
  util::Result<std::string> ObjectPath(const nlohmann::json& object, bool with_name);
  util::Result<Call> ApplyCall(const nlohmann::json& object, const ApplyOptions& options);
  util::Result<std::string> RefPath(const ObjectRef& ref, bool with_name);
  void LogRequest(const HttpRequest& req) const;
  /// `sent`: the request body, whose Secret values are scrubbed from logged headers.
  void LogResponse(const HttpRequest& req, std::string_view sent, const HttpResponse& resp,
                   std::chrono::milliseconds took) const;
  /// Prints each new Warning header of `resp` once, with the values of a Secret `call` sent scrubbed.
  void EmitWarnings(const Call& call, const HttpResponse& resp);

  RestConfig config_;
  Transport& transport_;
  util::Logger& log_;
  util::Clock& clock_;
  Authenticator auth_;
  Discovery discovery_;
  std::string user_agent_;
  std::atomic<uint64_t> requests_{0};
  std::atomic<uint64_t> throttled_{0};
  std::atomic<bool> reached_server_{false};  ///< some request got an answer (a later refusal is a restart)
  std::mutex fence_mu_;
  std::shared_ptr<const std::function<util::Status()>> fence_;  // guarded by fence_mu_
  std::function<std::optional<WriteWindow>()> window_;  // guarded by fence_mu_
  std::mutex warn_mu_;
  std::set<std::string> warnings_seen_;
};

/// True when `e` is an API error with this reason (e.g. "NotFound", "Conflict", "AlreadyExists").
bool IsReason(const util::Error& e, std::string_view reason);

}  // namespace tazuna::kube
