#include "kube/client.hpp"

#include "kube/object_meta.hpp"
#include "kube/url.hpp"
#include "util/json_get.hpp"
#include "util/path_segment.hpp"
#include "util/profile.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {
namespace {

using util::StrCat;

constexpr char kListLimit[] = "500";
// A list that has not ended after this many pages (10 million objects at 500 a page) is a server that
// keeps answering `continue`: stop rather than loop and grow without bound.
constexpr int kMaxListPages = 20000;
// An answer with the object's metadata only; a server that does not know that form answers with the object.
constexpr char kMetadataAnswer[] = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";

// kubectl's discovery cache directory name: host and port with ':' made safe.
std::string CacheHostPort(const std::string& server) {
  std::string host = ParseUrl(server).authority;
  for (char& c : host) {
    if (c == ':') c = '_';
  }
  return host;
}

std::string Meta(const nlohmann::json& object, const char* field) { return util::MetaString(object, field); }

void AddDryRun(DryRun dry_run, std::vector<std::pair<std::string, std::string>>* query) {
  if (dry_run == DryRun::kAll) query->emplace_back("dryRun", "All");
}

// A name or namespace that is not one path segment never becomes a request: "a/../../x" would name
// another object once a URL parser resolved it.
util::Status CheckSegment(const char* what, const std::string& kind, const std::string& value) {
  const auto problem = util::PathSegmentProblem(value);
  if (!problem) return util::Ok();
  return util::MakeError(util::ErrorKind::kInput, StrCat("invalid ", what, " ", util::Quote(value), " for ",
                                                         kind.empty() ? "an object" : kind, ": ", *problem));
}

// The one API-path builder: /api/V or /apis/G/V, /namespaces/NS for a namespaced resource when `ns`
// is given, then the resource (kubectl's REST mapping). Every segment is checked and escaped.
util::Result<std::string> CollectionPath(const ResourceInfo& info, const std::string& ns) {
  std::string path = info.group.empty() ? StrCat("/api/", PathEscape(info.version))
                                        : StrCat("/apis/", PathEscape(info.group), "/", PathEscape(info.version));
  if (info.namespaced && !ns.empty()) {
    if (auto st = CheckSegment("namespace", info.kind, ns); !st) return st.error();
    path += "/namespaces/" + PathEscape(ns);
  }
  return path + "/" + PathEscape(info.resource);
}

// Moves the items of one list page to `items`, with apiVersion and kind (`type`) filled in; a page that
// is not a list of objects is an error naming the path.
util::Status AppendPage(nlohmann::json& page, const std::string& path, const std::pair<std::string, std::string>& type,
                        std::vector<nlohmann::json>& items) {
  const nlohmann::json& page_items = util::JsonField(page, "items");
  // A list always names its items (null when none): a page without the key is not a list, never an empty one.
  if (!page.is_object() || !page.contains("items") || !(page_items.is_array() || page_items.is_null())) {
    return util::MakeError(util::ErrorKind::kApi, StrCat("the response to GET ", path, " is not a list"));
  }
  for (auto& item : page["items"]) {
    if (!item.is_object()) {
      return util::MakeError(util::ErrorKind::kApi, StrCat("the response to GET ", path, " lists a non-object"));
    }
    item["apiVersion"] = type.first;
    item["kind"] = type.second;
    items.push_back(std::move(item));
  }
  return util::Ok();
}

}  // namespace

Client::Client(RestConfig config, Transport& transport, util::ProcessRunner& processes, util::Logger& log,
               util::Clock& clock, const util::Environment& env)
    : config_(std::move(config)),
      transport_(transport),
      log_(log),
      clock_(clock),
      auth_(config_, processes, clock, env),
      discovery_(
          [this](const std::string& path, const std::string& accept) -> util::Result<DiscoveryResponse> {
            Call call{"GET", path, {}, "", "", accept};
            auto resp = Send(call);
            if (!resp) return resp.error();
            return DiscoveryResponse{resp->Header("Content-Type").value_or(""), std::move(resp->body)};
          },
          config_.cache_dir, CacheHostPort(config_.server), clock),
      user_agent_(UserAgent("v0.0.0", "")) {}

util::Result<ResourceInfo> Client::Resolve(const std::string& api_version, const std::string& kind) {
  return discovery_.Resolve(api_version, kind);
}

util::Result<std::string> Client::RefPath(const ObjectRef& ref, bool with_name) {
  auto info = Resolve(ref.api_version, ref.kind);
  if (!info) return info.error();
  auto path = CollectionPath(*info, ref.namespace_name.empty() ? config_.namespace_name : ref.namespace_name);
  if (!path || !with_name) return path;
  if (auto st = CheckSegment("name", ref.kind, ref.name); !st) return st.error();
  return StrCat(*path, "/", PathEscape(ref.name));
}

util::Result<std::string> Client::ObjectPath(const nlohmann::json& object, bool with_name) {
  const ObjectRef ref{util::JsonString(object, "apiVersion"), util::JsonString(object, "kind"),
                      Meta(object, "namespace"), Meta(object, "name")};
  if (ref.kind.empty() || ref.api_version.empty()) {
    return util::MakeError(util::ErrorKind::kInput, "object has no apiVersion or kind");
  }
  if (with_name && ref.name.empty()) {
    return util::MakeError(util::ErrorKind::kInput, StrCat(ref.kind, " has no metadata.name"));
  }
  return RefPath(ref, with_name);
}

util::Result<nlohmann::json> Client::Get(const ObjectRef& ref, const RequestOptions& options) {
  auto path = RefPath(ref, true);
  if (!path) return path.error();
  Call call{"GET", *path, {}, "", ""};
  call.deadline = options.deadline;
  return SendJson(call);
}

util::Result<std::vector<nlohmann::json>> Client::List(const std::string& api_version, const std::string& kind,
                                                      const std::string& namespace_name,
                                                      const std::string& label_selector, ListDetail detail) {
  auto info = Resolve(api_version, kind);
  if (!info) return info.error();
  auto collection = CollectionPath(*info, namespace_name);
  if (!collection) return collection.error();
  const std::string& path = *collection;
  std::vector<nlohmann::json> items;
  std::string cont;
  std::set<std::string> seen;  // continue tokens already followed: a repeated one would loop forever
  for (int restarts = 0, pages = 0;; ++pages) {
    if (pages >= kMaxListPages) {
      return util::MakeError(util::ErrorKind::kApi, StrCat("the list of ", path, " did not end after ",
                                                           kMaxListPages, " pages"));
    }
    Call call{"GET", path, {{"limit", kListLimit}}, "", ""};
    call.quiet = detail == ListDetail::kMetadataQuiet;
    if (detail != ListDetail::kFull) {
      call.accept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
    }
    if (!label_selector.empty()) call.query.emplace_back("labelSelector", label_selector);
    if (!cont.empty()) call.query.emplace_back("continue", cont);
    auto page = SendJson(call);
    if (!page && IsReason(page.error(), "Expired") && restarts++ < 3) {
      // The continue token expired (410): start the list again from the beginning.
      items.clear();
      cont.clear();
      seen.clear();
      continue;
    }
    if (!page) return page.error();
    if (auto st = AppendPage(*page, path, {api_version, kind}, items); !st) return st.error();
    cont = util::JsonString(util::JsonObject(*page, "metadata"), "continue");
    if (cont.empty()) return items;
    if (!seen.insert(cont).second) {
      return util::MakeError(util::ErrorKind::kApi, StrCat("the list of ", path, " repeats a continue token"));
    }
  }
}

util::Result<nlohmann::json> Client::Create(const nlohmann::json& object, const RequestOptions& options) {
  return SendWrite("POST", object, options);
}

util::Result<nlohmann::json> Client::Update(const nlohmann::json& object, const RequestOptions& options) {
  return SendWrite("PUT", object, options);
}

// A create (POST to the collection) or a replace (PUT to the object) of `object`, as `options` ask.
util::Result<nlohmann::json> Client::SendWrite(const char* method, const nlohmann::json& object,
                                               const RequestOptions& options) {
  auto path = ObjectPath(object, std::string_view(method) == "PUT");
  if (!path) return path.error();
  Call call{method, *path, {}, object.dump(), "application/json"};
  AddDryRun(options.dry_run, &call.query);
  call.fence = options.fence;
  call.deadline = options.deadline;
  if (options.metadata_answer) call.accept = kMetadataAnswer;
  return SendJson(call);
}

void Client::set_write_fence(std::function<util::Status()> fence, std::function<std::optional<WriteWindow>()> window) {
  auto shared = fence ? std::make_shared<const std::function<util::Status()>>(std::move(fence)) : nullptr;
  std::lock_guard<std::mutex> lock(fence_mu_);
  fence_ = std::move(shared);
  window_ = std::move(window);
}

util::Result<Client::Call> Client::ApplyCall(const nlohmann::json& object, const ApplyOptions& options) {
  util::ProfileScope profiled(util::ProfilePhase::kBody);
  auto path = ObjectPath(object, true);
  if (!path) return path.error();
  nlohmann::json meta = options.metadata != nullptr ? *options.metadata
                        : object.contains("metadata")  ? object["metadata"]
                                                       : nlohmann::json::object();
  if (!meta.is_object()) meta = nlohmann::json::object();
  meta.erase("managedFields");
  auto info = Resolve(util::JsonString(object, "apiVersion"), util::JsonString(object, "kind"));
  if (info && info->namespaced && util::JsonString(meta, "namespace").empty()) {
    meta["namespace"] = config_.namespace_name;  // as kubectl fills it in
  }
  Call call{"PATCH", *path, {}, JsonWithMetadata(object, meta), "application/apply-patch+yaml"};
  AddDryRun(options.dry_run, &call.query);
  call.query.emplace_back("fieldManager", options.field_manager);
  call.query.emplace_back("force", options.force ? "true" : "false");
  return call;
}

util::Result<ApplyResult> Client::ApplyObject(const nlohmann::json& object, const ApplyOptions& options) {
  auto call = ApplyCall(object, options);
  if (!call) return call.error();
  if (options.want_object) {
    auto resp = Send(*call);
    if (!resp) return resp.error();
    util::ProfileScope profiled(util::ProfilePhase::kParse);
    nlohmann::json doc = nlohmann::json::parse(resp->body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
      return util::MakeError(util::ErrorKind::kApi, StrCat("invalid JSON in the response to PATCH ", call->path));
    }
    ApplyResult result{Meta(doc, "uid"), Meta(doc, "resourceVersion"), resp->status == 201, {}};
    result.object = std::move(doc);
    return result;
  }
  call->accept = kMetadataAnswer;
  auto resp = Send(*call);
  if (!resp) return resp.error();
  util::ProfileScope profiled(util::ProfilePhase::kParse);
  auto meta = ReadObjectMeta(resp->body);
  if (!meta) return util::MakeError(util::ErrorKind::kApi, StrCat("invalid JSON in the response to PATCH ", call->path));
  return ApplyResult{std::move(meta->uid), std::move(meta->resource_version), resp->status == 201, {}};
}

util::Result<nlohmann::json> Client::Apply(const nlohmann::json& object, const ApplyOptions& options) {
  auto call = ApplyCall(object, options);
  if (!call) return call.error();
  return SendJson(*call);
}

util::Result<nlohmann::json> Client::JsonPatch(const ObjectRef& ref, const nlohmann::json& operations, DryRun dry_run) {
  auto path = RefPath(ref, true);
  if (!path) return path.error();
  Call call{"PATCH", *path, {}, operations.dump(), "application/json-patch+json"};
  AddDryRun(dry_run, &call.query);
  return SendJson(call);
}

util::Status Client::Delete(const ObjectRef& ref, Propagation propagation, DryRun dry_run,
                            const Preconditions& preconditions) {
  auto path = RefPath(ref, true);
  if (!path) return path.error();
  nlohmann::json options = {{"kind", "DeleteOptions"}, {"apiVersion", "v1"}};
  if (propagation == Propagation::kBackground) options["propagationPolicy"] = "Background";
  if (propagation == Propagation::kForeground) options["propagationPolicy"] = "Foreground";
  if (propagation == Propagation::kOrphan) options["propagationPolicy"] = "Orphan";
  if (!preconditions.uid.empty()) options["preconditions"]["uid"] = preconditions.uid;
  if (!preconditions.resource_version.empty()) {
    options["preconditions"]["resourceVersion"] = preconditions.resource_version;
  }
  // The server reads DeleteOptions from the body when there is one, ignoring the query: dryRun
  // must be in the body too, or a "dry run" deletes for real.
  if (dry_run == DryRun::kAll) options["dryRun"] = {"All"};
  Call call{"DELETE", *path, {}, options.dump(), "application/json"};
  AddDryRun(dry_run, &call.query);
  auto resp = Send(call);
  if (!resp) return resp.error();
  return util::Ok();
}

util::Result<nlohmann::json> Client::GetPath(const std::string& path) {
  return SendJson({"GET", path, {}, "", "", "application/json, */*"});
}

}  // namespace tazuna::kube
