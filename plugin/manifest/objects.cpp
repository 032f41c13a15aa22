#include "manifest/objects.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "manifest/names.hpp"
#include "util/api_version.hpp"
#include "util/strings.hpp"
#include "util/yaml_json.hpp"

namespace tazuna::manifest {
namespace {

using nlohmann::json;

// Cluster-scoped kinds of the built-in API groups (kubectl api-resources --namespaced=false, v1.31),
// keyed "group/Kind" with an empty core group.
const std::set<std::string>& ClusterScopedTable() {
  static const std::set<std::string> kTable = {
      "/Namespace", "/Node", "/PersistentVolume", "/ComponentStatus",
      "admissionregistration.k8s.io/MutatingWebhookConfiguration",
      "admissionregistration.k8s.io/ValidatingWebhookConfiguration",
      "admissionregistration.k8s.io/ValidatingAdmissionPolicy",
      "admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding",
      "admissionregistration.k8s.io/MutatingAdmissionPolicy",
      "admissionregistration.k8s.io/MutatingAdmissionPolicyBinding",
      "apiextensions.k8s.io/CustomResourceDefinition", "apiregistration.k8s.io/APIService",
      "authentication.k8s.io/TokenReview", "authentication.k8s.io/SelfSubjectReview",
      "authorization.k8s.io/SelfSubjectAccessReview", "authorization.k8s.io/SelfSubjectRulesReview",
      "authorization.k8s.io/SubjectAccessReview", "certificates.k8s.io/CertificateSigningRequest",
      "certificates.k8s.io/ClusterTrustBundle", "flowcontrol.apiserver.k8s.io/FlowSchema",
      "flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration", "internal.apiserver.k8s.io/StorageVersion",
      "networking.k8s.io/IngressClass", "networking.k8s.io/IPAddress", "networking.k8s.io/ServiceCIDR",
      "node.k8s.io/RuntimeClass", "policy/PodSecurityPolicy", "rbac.authorization.k8s.io/ClusterRole",
      "rbac.authorization.k8s.io/ClusterRoleBinding", "resource.k8s.io/DeviceClass",
      "resource.k8s.io/ResourceSlice", "scheduling.k8s.io/PriorityClass", "storage.k8s.io/CSIDriver",
      "storage.k8s.io/CSINode", "storage.k8s.io/StorageClass", "storage.k8s.io/VolumeAttachment",
      "storage.k8s.io/VolumeAttributesClass", "storagemigration.k8s.io/StorageVersionMigration",
  };
  return kTable;
}

std::string GroupOf(const std::string& api_version) {
  return util::SplitApiVersion(api_version).group;
}

std::string StringField(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool IsKind(const json& obj, const std::string& group, const std::string& kind) {
  return StringField(obj, "kind") == kind && GroupOf(StringField(obj, "apiVersion")) == group;
}

bool IsNamespaced(const json& obj, const std::map<std::string, bool>& crds, ScopeLookup* scopes) {
  const std::string api_version = StringField(obj, "apiVersion"), kind = StringField(obj, "kind");
  if (scopes) {
    if (const std::optional<bool> known = scopes->IsNamespaced(api_version, kind)) return *known;
  }
  if (auto it = crds.find(GroupOf(api_version) + "/" + kind); it != crds.end()) return it->second;
  return !IsBuiltinClusterScoped(api_version, kind);
}

util::Error InputError(const std::string& where, std::string_view problem) {
  return util::MakeError(util::ErrorKind::kInput, util::StrCat(where, problem));
}

// Why an object cannot be sent with server-side apply, or "" when it can: the request path needs
// apiVersion and metadata.name (apply has no generateName), so without them the apiserver would
// reject it mid-sync, after earlier objects were written.
std::string IdentityProblem(const json& obj) {
  auto api_version = obj.find("apiVersion");
  if (api_version == obj.end() || api_version->is_null() || *api_version == "") return "missing apiVersion";
  if (!api_version->is_string()) return "apiVersion must be a string";
  auto metadata = obj.find("metadata");
  if (metadata == obj.end() || metadata->is_null()) return "missing metadata.name";
  if (!metadata->is_object()) return "metadata must be a mapping";
  auto name = metadata->find("name");
  if (name == metadata->end() || name->is_null() || *name == "") return "missing metadata.name";
  if (!name->is_string()) return "metadata.name must be a string";
  // Names and namespaces the apiserver refuses for every kind fail here, before the first write.
  const std::string& text = name->get_ref<const std::string&>();
  if (auto problem = IsKind(obj, "", "Namespace") ? NamespaceProblem(text) : ObjectNameProblem(text)) return *problem;
  auto ns = metadata->find("namespace");
  if (ns == metadata->end() || ns->is_null() || *ns == "") return "";
  if (!ns->is_string()) return "metadata.namespace must be a string";
  return NamespaceProblem(ns->get_ref<const std::string&>()).value_or("");
}

// The API server refuses request bodies over 3 MiB (apiserver MaxRequestBodyBytes).
constexpr size_t kMaxRequestBytes = 3 * 1024 * 1024;

// Bytes of the strings and keys in `value`, counted until past `limit`: a lower bound on its JSON size.
size_t TextBytes(const json& value, size_t limit) {
  if (value.is_string()) return value.get_ref<const std::string&>().size();
  if (!value.is_structured()) return 1;
  size_t total = 0;
  for (auto it = value.begin(); it != value.end() && total <= limit; ++it) {
    total += (value.is_object() ? it.key().size() : 0) + TextBytes(*it, limit - total);
  }
  return total;
}

util::Status AppendObject(json obj, const std::string& where, std::vector<json>& out);

// What kubectl apply reads as absent is made absent, so every later step sees one meaning: a null or
// empty metadata.namespace (the context's namespace applies, as for none), null labels or annotations.
// (An object is sent as read otherwise; the Go tool would hash these nulls, but also fails on them.)
void DropEmptyMetadata(json& obj) {
  auto metadata = obj.find("metadata");
  if (metadata == obj.end() || !metadata->is_object()) return;
  for (const char* field : {"namespace", "labels", "annotations"}) {
    auto it = metadata->find(field);
    if (it != metadata->end() && (it->is_null() || (std::string_view(field) == "namespace" && *it == ""))) {
      metadata->erase(it);
    }
  }
}

// Expands a List into its items; nested Lists are flattened too, as kubectl's FlattenListVisitor does.
util::Status AppendListItems(json& list, const std::string& where, std::vector<json>& out) {
  auto items = list.find("items");
  if (items == list.end() || items->is_null()) return util::Ok();
  if (!items->is_array()) return InputError(where, ": items must be a list");
  for (size_t i = 0; i < items->size(); ++i) {
    json& item = (*items)[i];
    // An item without kind is dropped, like a document without kind.
    if (item.is_object() && !item.contains("kind")) continue;
    if (util::Status s = AppendObject(std::move(item), util::StrCat(where, ": item ", i + 1), out); !s) return s;
  }
  return util::Ok();
}

// `where` names the document or item ("repo/a.yaml: document 2"); errors extend it.
util::Status AppendObject(json obj, const std::string& where, std::vector<json>& out) {
  if (obj.is_null()) return util::Ok();
  if (!obj.is_object()) return InputError(where, " is not a mapping (want a Kubernetes object)");
  auto kind = obj.find("kind");
  if (kind == obj.end()) return util::Ok();
  if (!kind->is_string() || *kind == "") return InputError(where, ": kind must be a non-empty string");
  const std::string at = util::StrCat(where, " (kind ", kind->get<std::string>(), ")");
  if (*kind == "List") return AppendListItems(obj, at, out);
  DropEmptyMetadata(obj);
  if (const std::string problem = IdentityProblem(obj); !problem.empty()) return InputError(at, ": " + problem);
  if (TextBytes(obj, kMaxRequestBytes) > kMaxRequestBytes) {
    return InputError(at, ": object is larger than the 3 MiB the API server accepts in one request");
  }
  out.push_back(std::move(obj));
  return util::Ok();
}

}  // namespace

std::map<std::string, bool> CrdScopes(const std::vector<json>& objects) {
  std::map<std::string, bool> out;
  for (const json& obj : objects) {
    if (!IsKind(obj, "apiextensions.k8s.io", "CustomResourceDefinition")) continue;
    auto spec = obj.find("spec");
    if (spec == obj.end() || !spec->is_object()) continue;
    auto names = spec->find("names");
    if (names == spec->end() || !names->is_object()) continue;
    const std::string key = StringField(*spec, "group") + "/" + StringField(*names, "kind");
    out[key] = StringField(*spec, "scope") != "Cluster";
  }
  return out;
}

bool IsBuiltinClusterScoped(const std::string& api_version, const std::string& kind) {
  return ClusterScopedTable().count(GroupOf(api_version) + "/" + kind) > 0;
}

util::Result<std::vector<json>> ParseDocuments(std::string_view text, const std::string& source_name) {
  util::YamlOptions options;
  options.source_name = source_name;
  return util::ParseYamlStream(text, options);
}

util::Result<std::vector<json>> DocumentsToObjects(std::vector<json> docs, const std::string& source_name) {
  std::vector<json> out;
  for (size_t i = 0; i < docs.size(); ++i) {
    const std::string where = util::StrCat(source_name, ": document ", i + 1);
    if (util::Status s = AppendObject(std::move(docs[i]), where, out); !s) return s.error();
  }
  return out;
}

void SetDefaultNamespace(std::vector<json>& objects, const std::string& ns, ScopeLookup* scopes) {
  if (ns.empty()) return;
  const std::map<std::string, bool> crds = CrdScopes(objects);
  for (json& obj : objects) {
    if (!IsNamespaced(obj, crds, scopes)) continue;
    json& metadata = obj["metadata"];
    if (!metadata.is_object()) metadata = json::object();
    auto it = metadata.find("namespace");
    if (it == metadata.end() || it->is_null() || (it->is_string() && it->get<std::string>().empty())) {
      metadata["namespace"] = ns;
    }
  }
}

void OrderObjects(std::vector<json>& objects, std::vector<std::string>* sources) {
  auto rank = [](const json& obj) {
    if (IsKind(obj, "", "Namespace")) return 0;
    if (IsKind(obj, "apiextensions.k8s.io", "CustomResourceDefinition")) return 1;
    return 2;
  };
  std::vector<size_t> order(objects.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rank(objects[a]) < rank(objects[b]); });
  std::vector<json> sorted;
  sorted.reserve(objects.size());
  for (size_t i : order) sorted.push_back(std::move(objects[i]));
  objects = std::move(sorted);
  if (sources == nullptr || sources->size() != order.size()) return;
  std::vector<std::string> moved;
  moved.reserve(order.size());
  for (size_t i : order) moved.push_back(std::move((*sources)[i]));
  *sources = std::move(moved);
}

}  // namespace tazuna::manifest
