// kubectl tazuna state export -m NAME... [-o yaml|json]
#include "cli/state_export.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "cli/pipeline.hpp"
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

}  // namespace

util::Status StateExportOptions::Complete(Context&, const FlagSet&) {
  if (output != "yaml" && output != "json") {
    return util::MakeError(util::ErrorKind::kUsage,
                           StrCat("unable to match a printer suitable for the output format \"", output,
                                  "\", allowed formats are: json,yaml"));
  }
  as_json = output == "json";
  return util::Ok();
}

util::Status StateExportOptions::Validate() const {
  if (manifests.empty()) return util::MakeError(util::ErrorKind::kUsage, "state export needs -m NAME (one or more)");
  return util::Ok();
}

util::Result<int> StateExportOptions::Run(Context& ctx) {
  auto session = OpenSession(ctx, connection);
  if (!session) return session.error();
  kube::Client& client = *(*session)->client;
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
  if (as_json) {
    ctx.out << json::object({{"apiVersion", "v1"}, {"kind", "List"}, {"items", docs}}).dump(4) << "\n";
  } else {
    for (size_t i = 0, d = 0; i < comments.size(); ++i) {
      if (!comments[i].empty()) {
        ctx.out << comments[i];
        continue;
      }
      if (d > 0) ctx.out << "---\n";
      ctx.out << util::EmitYaml(docs[d++]);
    }
  }
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

      Exit status: 0 Every recorded object was exported. 1 Some object was left out (a Secret, gone, or tazuna
      owns none of its fields; a warning names it). >1 An error occurred.
  )"));
  c.examples = Examples(R"(
      # What the cluster holds of manifest cni
      kubectl tazuna state export -m cni

      # Recover a manifest's files
      kubectl tazuna state export -m cni > cni/export.yaml
  )");
  c.exit_style = ExitStyle::kDiff;
  c.add_flags = [o](FlagSet& f) {
    f.StringArray(&o->manifests, "manifest", 'm', "The manifests to export (repeatable).");
    AddOutputFlag(f, o->output, "yaml, json");
    AddConnectionFlags(f, o->connection);
  };
  c.run = RunOptions(o);
  return c;
}

}  // namespace tazuna::cli
