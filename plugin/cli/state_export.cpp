// kubectl tazuna state export -m NAME... | --live TYPE/NAME... [-n NS] [-o yaml|json]
#include "cli/state_export.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "cli/export_defaults.hpp"
#include "cli/pipeline.hpp"
#include "cli/takeover_flag.hpp"
#include "kube/resource_names.hpp"
#include "kube/served_version.hpp"
#include "state/apply/field_takeover.hpp"
#include "state/diff/marks.hpp"
#include "state/store/applyset.hpp"
#include "state/store/content_hash.hpp"
#include "state/store/identity.hpp"
#include "state/store/store.hpp"
#include "util/strings.hpp"
#include "util/json_get.hpp"
#include "util/yaml_emit.hpp"

namespace tazuna::cli {

namespace {

using nlohmann::json;
using util::StrCat;

// Removes `key` from the map at metadata.`field`, and the map when that leaves it empty.
void Drop(json& metadata, const char* field, const char* key) {
  const auto it = metadata.find(field);
  if (it == metadata.end() || !it->is_object()) return;
  it->erase(key);
  if (it->empty()) metadata.erase(field);
}

// What tazuna's field manager owns of `live`, as a manifest would say it: apiVersion, kind, name, the
// namespace when the recorded key has one (a render that named none leaves it to the context), and the
// owned fields without the marks every apply adds (they are not the manifest's).
json OwnedPart(const json& live, const state::FieldSet& owned, const state::StateKey& key) {
  json out = owned.Project(live);
  if (!out.is_object()) out = json::object();
  json metadata = out.value("metadata", json::object());
  metadata["name"] = key.name;
  if (!key.namespace_name.empty()) metadata["namespace"] = key.namespace_name;
  Drop(metadata, "labels", state::kManagedByLabel);
  Drop(metadata, "labels", state::kApplySetPartOfLabel);
  Drop(metadata, "annotations", state::kManifestAnnotation);
  Drop(metadata, "annotations", state::kOriginAnnotation);
  out["metadata"] = std::move(metadata);
  out["apiVersion"] = live.value("apiVersion", key.ApiVersion());
  out["kind"] = live.value("kind", key.kind);
  return out;
}

// Server defaults inside values a field manager owns whole (atomic structs and list items), which a manifest
// rarely says: a downward API fieldRef's apiVersion (v1) and resourceFieldRef's divisor (0), an admission
// webhook rule's scope (*). Tried only when the export as read does not hash as what was applied.
void DropAtomicDefaults(json& node) {
  if (node.is_array()) {
    for (auto& item : node) DropAtomicDefaults(item);
    return;
  }
  if (!node.is_object()) return;
  const auto drop = [](json& o, const char* key, const json& value) {
    if (o.is_object() && o.contains(key) && o[key] == value) o.erase(key);
  };
  for (auto& [key, value] : node.items()) {
    if (key == "fieldRef" && value.is_object() && value.contains("fieldPath")) drop(value, "apiVersion", "v1");
    if (key == "resourceFieldRef" && value.is_object() && value.contains("resource")) drop(value, "divisor", "0");
    if (key == "rules" && value.is_array()) {
      for (auto& rule : value) {
        if (rule.is_object() && rule.contains("operations")) drop(rule, "scope", "*");
      }
    }
    if (key == "ports" && value.is_array()) {  // a NetworkPolicy's ports (atomic items)
      for (auto& port : value) {
        if (port.is_object() && port.contains("port") && !port.contains("targetPort") && !port.contains("containerPort")) {
          drop(port, "protocol", "TCP");
        }
      }
    }
    if (key == "volumeClaimTemplates" && value.is_array()) {  // a StatefulSet's (an atomic list)
      for (auto& claim : value) {
        if (!claim.is_object()) continue;
        drop(claim, "apiVersion", "v1");
        drop(claim, "kind", "PersistentVolumeClaim");
        claim.erase("status");
        if (claim.contains("metadata") && claim["metadata"].is_object()) drop(claim["metadata"], "creationTimestamp", nullptr);
        if (claim.contains("spec") && claim["spec"].is_object()) drop(claim["spec"], "volumeMode", "Filesystem");
      }
    }
    DropAtomicDefaults(value);
  }
}

// The export that hashes as the render tazuna applied (`hash`, from the state), if one of the few forms the
// live object leaves open does: as read, or without the defaults above; without the managed-by label or with
// Helm's value of it (tazuna's mark replaces it on every apply). The hash proves the choice; nullopt: none.
std::optional<json> AsApplied(const json& owned, const std::string& hash) {
  for (const bool drop_defaults : {false, true}) {
    for (const char* managed_by : {"", "Helm"}) {
      json doc = owned;
      if (drop_defaults) DropAtomicDefaults(doc);
      if (*managed_by != '\0') doc["metadata"]["labels"][state::kManagedByLabel] = managed_by;
      if (state::ContentHash(doc) == hash) return doc;
    }
  }
  return std::nullopt;
}

std::string Named(const state::StateKey& k, const std::string& ns) {
  return StrCat(k.kind, " ", ns.empty() ? k.name : ns + "/" + k.name);
}

// The documents as multi-document YAML (each comment, where set, in place of its document) or one List.
void PrintDocs(std::ostream& out, bool as_json, const std::vector<json>& docs, const std::vector<std::string>& comments) {
  if (as_json) {
    out << json::object({{"apiVersion", "v1"}, {"kind", "List"}, {"items", docs}}).dump(4) << "\n";
    return;
  }
  for (size_t i = 0, d = 0; i < comments.size(); ++i) {
    if (!comments[i].empty()) {
      out << comments[i];
      continue;
    }
    if (d > 0) out << "---\n";
    out << util::EmitYaml(docs[d++]);
  }
}

// What appliers set of `live`: the fields of every managedFields entry (no subresource) that is an apply
// (operation Apply: kubectl apply --server-side, any server-side applier) or an update by one of `appliers`
// (kubectl apply/create/edit/replace, helm, ...), in `version` (the entries of other versions name fields of
// another schema and are counted in `other_versions`). Controllers' fields (status, replicas an autoscaler
// sets, defaults) are not theirs.
state::FieldSet AppliedFields(const json& live, const state::TakeoverManagers& appliers, const std::string& version,
                              int& other_versions, state::FieldSet& server_side) {
  state::FieldSet fields;
  for (const auto& e : util::JsonObject(live, "metadata").value("managedFields", json::array())) {
    if (!e.is_object() || !util::JsonString(e, "subresource").empty()) continue;
    const bool applier = util::JsonString(e, "operation") == "Apply" || appliers.names.count(util::JsonString(e, "manager")) > 0;
    if (!applier) continue;
    if (util::JsonString(e, "apiVersion") != version) {
      ++other_versions;
      continue;
    }
    const state::FieldSet set = state::FieldSet::FromFieldsV1(util::JsonObject(e, "fieldsV1"));
    fields = fields.Union(set);
    if (util::JsonString(e, "operation") == "Apply") server_side = server_side.Union(set);
  }
  return fields;
}

// The values of `doc` that may be server defaults: what appliers own through an update (a create's update owns
// every field the object was created with, defaults included), but not what a server-side apply or kubectl's
// last-applied-configuration says was set on purpose, nor metadata.
std::vector<state::FieldPath> DefaultCandidates(const json& doc, const json& live, const state::FieldSet& fields,
                                                const state::FieldSet& server_side) {
  json last_applied;
  const json& annotations = util::JsonObject(util::JsonObject(live, "metadata"), "annotations");
  const std::string text = util::JsonString(annotations, "kubectl.kubernetes.io/last-applied-configuration");
  if (!text.empty()) last_applied = json::parse(text, nullptr, false);
  std::vector<state::FieldPath> out;
  for (const auto& p : fields.ValuePaths()) {
    if (p.empty() || p[0] == "f:metadata" || p[0] == "f:apiVersion" || p[0] == "f:kind") continue;
    if (server_side.Contains(p) || state::FindField(doc, p) == nullptr) continue;
    if (last_applied.is_object() && state::FindField(last_applied, p) != nullptr) continue;
    out.push_back(p);
  }
  return out;
}

// The version the newest applier entry wrote in ("" when none): the fields of the export are that schema's.
std::string ApplierVersion(const json& live, const state::TakeoverManagers& appliers) {
  std::string version, newest;
  for (const auto& e : util::JsonObject(live, "metadata").value("managedFields", json::array())) {
    if (!e.is_object() || !util::JsonString(e, "subresource").empty()) continue;
    if (util::JsonString(e, "operation") != "Apply" && appliers.names.count(util::JsonString(e, "manager")) == 0) continue;
    const std::string time = util::JsonString(e, "time");
    if (version.empty() || time >= newest) version = util::JsonString(e, "apiVersion"), newest = time;
  }
  return version;
}

// What the appliers' fields of `live` are as a manifest: apiVersion, kind, name, namespace, and those fields
// without the bookkeeping tools add (kubectl's last-applied-configuration, Helm's release annotations,
// tazuna's marks) and without server defaults inside values owned whole.
json ManifestOf(const json& live, const state::FieldSet& fields, const kube::NamedResource& type) {
  json out = fields.Project(live);
  if (!out.is_object()) out = json::object();
  out.erase("status");
  json metadata = out.value("metadata", json::object());
  metadata["name"] = util::MetaString(live, "name");
  if (type.namespaced) metadata["namespace"] = util::MetaString(live, "namespace");
  for (const char* a : {"kubectl.kubernetes.io/last-applied-configuration", "meta.helm.sh/release-name",
                        "meta.helm.sh/release-namespace", state::kManifestAnnotation, state::kOriginAnnotation}) {
    Drop(metadata, "annotations", a);
  }
  Drop(metadata, "labels", state::kApplySetPartOfLabel);
  out["metadata"] = std::move(metadata);
  out["apiVersion"] = live.value("apiVersion", type.ApiVersion());
  out["kind"] = live.value("kind", type.kind);
  DropAtomicDefaults(out);
  return out;
}

// state export --live: each TYPE/NAME (kubectl's TYPE, the context's or -n's namespace) as a manifest holding
// what appliers set of it.
util::Result<int> ExportLive(Context& ctx, kube::Client& client, const StateExportOptions& o) {
  std::vector<json> docs;
  std::vector<std::string> comments;
  size_t left_out = 0;
  for (const auto& arg : o.objects) {
    const std::string type_text = arg.substr(0, arg.find('/'));
    const std::string name = arg.substr(arg.find('/') + 1);
    auto type = kube::ResolveResourceType(client, type_text);
    if (!type) return type.error();
    const std::string ns = type->namespaced ? client.config().namespace_name : "";
    const std::string named = StrCat(type->kind, " ", ns.empty() ? name : ns + "/" + name);
    if (type->group.empty() && type->kind == "Secret") {
      comments.push_back(StrCat("# ", named, " left out: tazuna never prints Secret values\n"));
      ctx.err << "Warning: " << named << " left out: tazuna never prints Secret values\n";
      ++left_out;
      continue;
    }
    auto live = client.Get({type->ApiVersion(), type->kind, ns, name});
    if (!live && kube::IsReason(live.error(), "NotFound")) {
      ctx.err << "Warning: " << named << " left out: not found\n";
      ++left_out;
      continue;
    }
    if (!live) return live.error();
    const std::string version = ApplierVersion(*live, o.appliers);
    if (!version.empty() && version != type->ApiVersion()) {  // field paths are those of the version applied
      auto as_applied = client.Get({version, type->kind, ns, name});
      if (as_applied) live = std::move(as_applied);
    }
    int other_versions = 0;
    state::FieldSet server_side;
    const state::FieldSet fields = AppliedFields(*live, o.appliers, live->value("apiVersion", ""), other_versions, server_side);
    if (fields.empty()) {
      ctx.err << "Warning: " << named << " left out: no applier set any of its fields (only controllers or "
              << "managers --takeover-managers does not name wrote it)\n";
      ++left_out;
      continue;
    }
    if (other_versions > 0) {
      ctx.err << "Warning: " << named << ": fields applied through another apiVersion are left out\n";
    }
    json doc = ManifestOf(*live, fields, *type);
    const DefaultsStripped stripped = StripServerDefaults(client, doc, DefaultCandidates(doc, *live, fields, server_side));
    if (!stripped.warning.empty()) ctx.err << "Warning: " << named << ": " << stripped.warning << "\n";
    docs.push_back(std::move(doc));
    comments.emplace_back();
  }
  PrintDocs(ctx.out, o.as_json, docs, comments);
  return left_out == 0 ? kExitOk : kExitDifferences;
}

}  // namespace

util::Status StateExportOptions::Complete(Context& ctx, const FlagSet&, const std::vector<std::string>& args) {
  if (output != "yaml" && output != "json") {
    return util::MakeError(util::ErrorKind::kUsage,
                           StrCat("unable to match a printer suitable for the output format \"", output,
                                  "\", allowed formats are: json,yaml"));
  }
  as_json = output == "json";
  objects = args;
  auto managers = ResolveTakeoverManagers(ctx, takeover_managers);
  if (!managers) return managers.error();
  appliers = std::move(*managers);
  // The API server's entry for the fields an object had before managedFields were tracked holds everything it
  // had, defaults and assigned values included: never an applier's.
  appliers.names.erase(state::kBeforeFirstApply);
  return util::Ok();
}

util::Status StateExportOptions::Validate() const {
  if (live && !manifests.empty()) return util::MakeError(util::ErrorKind::kUsage, "--live and -m cannot be used together");
  if (live && objects.empty()) return util::MakeError(util::ErrorKind::kUsage, "--live needs TYPE/NAME arguments (e.g. deployment/web)");
  if (!live && !objects.empty()) {
    return util::MakeError(util::ErrorKind::kUsage, "TYPE/NAME arguments need --live (objects tazuna does not manage yet)");
  }
  for (const auto& o : objects) {
    const size_t slash = o.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == o.size() || o.find('/', slash + 1) != std::string::npos) {
      return util::MakeError(util::ErrorKind::kUsage, StrCat("invalid object ", util::Quote(o), ": use TYPE/NAME, e.g. deployment/web"));
    }
  }
  if (!live && manifests.empty()) return util::MakeError(util::ErrorKind::kUsage, "state export needs -m NAME (one or more), or --live TYPE/NAME...");
  return util::Ok();
}

util::Result<int> StateExportOptions::Run(Context& ctx) {
  auto session = OpenSession(ctx, connection);
  if (!session) return session.error();
  kube::Client& client = *(*session)->client;
  if (live) return ExportLive(ctx, client, *this);
  state::StateStore store(client);
  auto in_cluster = store.ListManifests();
  if (!in_cluster) return in_cluster.error();
  for (const auto& m : manifests) {
    if (std::find(in_cluster->begin(), in_cluster->end(), m) == in_cluster->end()) {
      return util::MakeError(util::ErrorKind::kNotFound,
                             StrCat("manifest ", util::Quote(m), " has no state in this cluster (see state list --all)"));
    }
  }
  auto scopes = NewDiscoveryScopes(client);
  state::IdentityResolver ids(scopes.get(), client.config().namespace_name);
  std::vector<json> docs;
  std::vector<std::string> comments;  // per document, written before it in YAML
  size_t left_out = 0;
  std::map<std::string, kube::ServedVersion> served_versions;  // group/kind/version -> what serves it (looked up once)
  std::map<std::string, std::vector<std::string>> differs;  // manifest -> objects whose export is not what was applied
  std::vector<std::string> names;  // -m as given, each once
  for (const auto& m : manifests) {
    if (std::find(names.begin(), names.end(), m) == names.end()) names.push_back(m);
  }
  for (const auto& name : names) {
    auto st = store.Read(name);
    if (!st) return st.error();
    for (const auto& [key_string, hash] : st->entries) {
      auto key = state::ParseStateKey(key_string);
      if (!key || state::KeyNameProblem(*key)) {
        ctx.err << "Warning: " << name << ": left out invalid state key " << util::Quote(key_string) << "\n";
        ++left_out;
        continue;
      }
      const std::string ns = ids.ResolveStored(*key, st->metadata.context_namespace).namespace_name;
      if (key->group.empty() && key->kind == "Secret") {
        // Secret values never reach stdout: the document says what was left out.
        comments.push_back(StrCat("# ", name, ": ", Named(*key, ns), " left out: tazuna never prints Secret values\n"));
        ctx.err << "Warning: " << name << ": " << Named(*key, ns) << " left out: tazuna never prints Secret values\n";
        ++left_out;
        continue;
      }
      const std::string gkv = StrCat(key->group, "/", key->kind, "/", key->version);
      if (!served_versions.count(gkv)) served_versions[gkv] = kube::ServedVersionOf(client, key->group, key->version, key->kind);
      const kube::ServedVersion& served = served_versions[gkv];
      if (!served.error.empty()) return util::MakeError(util::ErrorKind::kApi, StrCat("cannot read ", Named(*key, ns), ": ", served.error));
      if (served.gone) {
        ctx.err << "Warning: " << name << ": " << Named(*key, ns) << " left out: the server serves no " << key->kind << "\n";
        ++left_out;
        continue;
      }
      const std::string api_version = key->group.empty() ? served.version : key->group + "/" + served.version;
      auto live = client.Get({api_version, key->kind, ns, key->name});
      if (!live && kube::IsReason(live.error(), "NotFound")) {
        ctx.err << "Warning: " << name << ": " << Named(*key, ns) << " left out: not found\n";
        ++left_out;
        continue;
      }
      if (!live) return live.error();
      const json& managed = util::JsonObject(*live, "metadata").value("managedFields", json::array());
      const state::FieldOwners owners = state::ReadFieldOwners(managed, {});
      if (owners.has_tazuna && owners.tazuna_version != api_version) {
        // Field paths are those of the version tazuna applied: read the object in that version, if served.
        auto as_applied = client.Get({owners.tazuna_version, key->kind, ns, key->name});
        if (as_applied) {
          live = std::move(as_applied);
        } else {
          ctx.err << "Warning: " << name << ": " << Named(*key, ns) << ": tazuna applied it as " << owners.tazuna_version
                  << ", which cannot be read (" << as_applied.error().message << "): exported as " << api_version
                  << ", whose fields may differ\n";
        }
      }
      if (!owners.has_tazuna || owners.tazuna.empty()) {
        ctx.err << "Warning: " << name << ": " << Named(*key, ns) << " left out: tazuna's field manager owns none of its fields\n";
        ++left_out;
        continue;
      }
      std::optional<json> doc = AsApplied(OwnedPart(*live, owners.tazuna, *key), hash);
      if (!doc) {
        doc = OwnedPart(*live, owners.tazuna, *key);
        DropAtomicDefaults(*doc);
        differs[name].push_back(Named(*key, ns));
      }
      docs.push_back(std::move(*doc));
      comments.emplace_back();
    }
  }
  for (const auto& [name, objects] : differs) {
    constexpr size_t kNamed = 5;
    std::string named = util::Join(std::vector<std::string>(objects.begin(), objects.begin() + std::min(objects.size(), kNamed)), ", ");
    if (objects.size() > kNamed) named += ", ...";
    ctx.err << "Warning: " << name << ": " << objects.size() << (objects.size() == 1 ? " object differs" : " objects differ")
            << " from what tazuna applied (the hash in its state): " << named
            << ": a label tazuna's marks replaced, a server default inside a value owned whole, an empty map or list, "
               "or a field another writer took\n";
  }
  PrintDocs(ctx.out, as_json, docs, comments);
  return left_out == 0 ? kExitOk : kExitDifferences;
}

Command NewStateExportCommand() {
  auto o = std::make_shared<StateExportOptions>();
  Command c = Describe("state export", "Print what tazuna applied of a manifest's live objects, as YAML", LongDesc(R"(
      Read every object a manifest's state records and print the fields tazuna's field manager owns of it
      (from managedFields), as multi-document YAML in the state's order: what the cluster really holds of the
      manifest, ready to become its files again (to recover a lost repository, or to see what was applied).
      Server defaults, status, and fields other writers own are left out, and so are the labels and
      annotations every apply adds. The state is read, not tazuna.yaml: a manifest no longer listed there
      can be exported. Secrets are left out with a comment: tazuna never prints Secret values.

      With --live, objects tazuna does not manage yet are exported instead, for onboarding: the fields their
      appliers set (server-side appliers, and the managers --takeover-managers names: kubectl apply, create,
      edit, replace, helm, ...), never what controllers wrote, without status, server defaults inside values
      owned whole, or kubectl's and Helm's bookkeeping annotations.

      Exit status: 0 Every recorded object was exported. 1 Some object was left out (a Secret, gone, or tazuna
      owns none of its fields; a warning names it). >1 An error occurred.
  )"));
  c.args_usage = "-m NAME... | --live TYPE/NAME...";
  c.examples = Examples(R"(
      # What the cluster holds of manifest cni
      kubectl tazuna state export -m cni

      # Recover a manifest's files
      kubectl tazuna state export -m cni > cni/export.yaml

      # Onboard objects made with kubectl or helm: what was applied of them, ready to become a manifest
      kubectl tazuna state export --live deployment/web service/web configmap/web-config -n web > web/objects.yaml
  )");
  c.exit_style = ExitStyle::kDiff;
  c.exit_one = "objects left out";
  c.add_flags = [o](FlagSet& f) {
    f.StringArray(&o->manifests, "manifest", 'm', "The manifests to export (repeatable).");
    f.Bool(&o->live, "live", 0,
           "Export the objects TYPE/NAME names (kubectl's TYPE; in the context's namespace or -n), which tazuna does "
           "not manage yet: the fields appliers set (server-side appliers, and the managers of --takeover-managers: "
           "kubectl apply/create/edit/replace, helm), without server defaults, status or tools' bookkeeping.");
    AddTakeoverFlag(f, o->takeover_managers);
    AddOutputFlag(f, o->output, "yaml, json");
    AddConnectionFlags(f, o->connection);
  };
  c.run_with_args = RunOptionsWithArgs(o);
  return c;
}

}  // namespace tazuna::cli
