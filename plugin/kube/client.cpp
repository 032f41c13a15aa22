#include "kube/client.hpp"

#include "kube/object_meta.hpp"
#include "kube/url.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {
namespace {

using util::StrCat;

constexpr char kListLimit[] = "500";

// kubectl's discovery cache directory name: host and port with ':' made safe.
std::string CacheHostPort(const std::string& server) {
  std::string host = ParseUrl(server).authority;
  for (char& c : host) {
    if (c == ':') c = '_';
  }
  return host;
}

std::string Meta(const nlohmann::json& object, const char* field) {
  if (!object.contains("metadata") || !object["metadata"].is_object()) return "";
  return object["metadata"].value(field, "");
}

void AddDryRun(DryRun dry_run, std::vector<std::pair<std::string, std::string>>* query) {
  if (dry_run == DryRun::kAll) query->emplace_back("dryRun", "All");
}

// The one API-path builder: /api/V or /apis/G/V, /namespaces/NS for a namespaced resource when `ns`
// is given, then the resource (kubectl's REST mapping).
std::string CollectionPath(const ResourceInfo& info, const std::string& ns) {
  std::string path =
      info.group.empty() ? StrCat("/api/", info.version) : StrCat("/apis/", info.group, "/", info.version);
  if (info.namespaced && !ns.empty()) path += "/namespaces/" + ns;
  return path + "/" + info.resource;
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
  std::string path =
      CollectionPath(*info, ref.namespace_name.empty() ? config_.namespace_name : ref.namespace_name);
  if (with_name) path += "/" + ref.name;
  return path;
}

util::Result<std::string> Client::ObjectPath(const nlohmann::json& object, bool with_name) {
  const ObjectRef ref{object.value("apiVersion", ""), object.value("kind", ""), Meta(object, "namespace"),
                      Meta(object, "name")};
  if (ref.kind.empty() || ref.api_version.empty()) {
    return util::MakeError(util::ErrorKind::kInput, "object has no apiVersion or kind");
  }
  if (with_name && ref.name.empty()) {
    return util::MakeError(util::ErrorKind::kInput, StrCat(ref.kind, " has no metadata.name"));
  }
  return RefPath(ref, with_name);
}

util::Result<nlohmann::json> Client::Get(const ObjectRef& ref) {
  auto path = RefPath(ref, true);
  if (!path) return path.error();
  return SendJson({"GET", *path, {}, "", ""});
}

util::Result<std::vector<nlohmann::json>> Client::List(const std::string& api_version, const std::string& kind,
                                                      const std::string& namespace_name,
                                                      const std::string& label_selector, ListDetail detail) {
  auto info = Resolve(api_version, kind);
  if (!info) return info.error();
  const std::string path = CollectionPath(*info, namespace_name);
  std::vector<nlohmann::json> items;
  std::string cont;
  for (int restarts = 0;;) {
    Call call{"GET", path, {{"limit", kListLimit}}, "", ""};
    if (detail == ListDetail::kMetadata) {
      call.accept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
    }
    if (!label_selector.empty()) call.query.emplace_back("labelSelector", label_selector);
    if (!cont.empty()) call.query.emplace_back("continue", cont);
    auto page = SendJson(call);
    if (!page && IsReason(page.error(), "Expired") && restarts++ < 3) {
      // The continue token expired (410): start the list again from the beginning.
      items.clear();
      cont.clear();
      continue;
    }
    if (!page) return page.error();
    for (auto& item : (*page)["items"]) {
      item["apiVersion"] = api_version;
      item["kind"] = kind;
      items.push_back(std::move(item));
    }
    cont = page->value("metadata", nlohmann::json::object()).value("continue", "");
    if (cont.empty()) return items;
  }
}

util::Result<nlohmann::json> Client::Create(const nlohmann::json& object, DryRun dry_run) {
  auto path = ObjectPath(object, false);
  if (!path) return path.error();
  Call call{"POST", *path, {}, object.dump(), "application/json"};
  AddDryRun(dry_run, &call.query);
  return SendJson(call);
}

util::Result<nlohmann::json> Client::Update(const nlohmann::json& object, DryRun dry_run) {
  auto path = ObjectPath(object, true);
  if (!path) return path.error();
  Call call{"PUT", *path, {}, object.dump(), "application/json"};
  AddDryRun(dry_run, &call.query);
  return SendJson(call);
}

util::Result<Client::Call> Client::ApplyCall(const nlohmann::json& object, const ApplyOptions& options) {
  auto path = ObjectPath(object, true);
  if (!path) return path.error();
  nlohmann::json meta = options.metadata != nullptr ? *options.metadata
                        : object.contains("metadata")  ? object["metadata"]
                                                       : nlohmann::json::object();
  if (!meta.is_object()) meta = nlohmann::json::object();
  meta.erase("managedFields");
  auto info = Resolve(object.value("apiVersion", ""), object.value("kind", ""));
  if (info && info->namespaced && meta.value("namespace", "").empty()) {
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
    nlohmann::json doc = nlohmann::json::parse(resp->body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
      return util::MakeError(util::ErrorKind::kApi, StrCat("invalid JSON in the response to PATCH ", call->path));
    }
    ApplyResult result{Meta(doc, "uid"), Meta(doc, "resourceVersion"), resp->status == 201, {}};
    result.object = std::move(doc);
    return result;
  }
  // A server that does not know the PartialObjectMetadata form answers with the object itself.
  call->accept = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
  auto resp = Send(*call);
  if (!resp) return resp.error();
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
