#include "state/apply/field_takeover.hpp"

#include <algorithm>

#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;

TakeoverManagers DefaultTakeoverManagers() {
  TakeoverManagers m;
  for (const auto& tool : kDefaultToolManagers) m.names.insert(tool.name);
  return m;
}

util::Result<TakeoverManagers> ParseTakeoverManagers(std::string_view text, std::string_view source) {
  TakeoverManagers out;
  const auto parts = util::Split(text, ',');
  for (const auto& part : parts) {
    const std::string name(util::Trim(part));
    const bool blank = name.empty() || std::any_of(name.begin(), name.end(), [](unsigned char c) {
                         return c <= ' ' || c == 0x7f;
                       });
    if (blank) {
      return util::MakeError(util::ErrorKind::kUsage,
                             util::StrCat("invalid ", source, " ", util::Quote(std::string(text)),
                                          ": give field manager names separated by commas, default, or none"));
    }
    if (name == "none" && parts.size() == 1) return out;
    if (name == "default") {
      const TakeoverManagers defaults = DefaultTakeoverManagers();
      out.names.insert(defaults.names.begin(), defaults.names.end());
    } else {
      out.names.insert(name);
    }
  }
  return out;
}

namespace {

std::string Field(const json& entry, const char* name) {
  const auto it = entry.find(name);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : "";
}

bool IsTazunaApply(const json& entry) {
  return Field(entry, "manager") == kTazunaManager && Field(entry, "operation") == "Apply" &&
         Field(entry, "subresource").empty();
}

// An entry of a taken-over manager (tazuna's own Apply entry never is one).
bool IsTool(const json& entry, const TakeoverManagers& takeover) {
  return takeover.names.count(Field(entry, "manager")) > 0 && Field(entry, "subresource").empty() &&
         !IsTazunaApply(entry);
}

FieldSet FieldsOf(const json& entry) {
  const auto it = entry.find("fieldsV1");
  return it == entry.end() ? FieldSet() : FieldSet::FromFieldsV1(*it);
}

// The tools' bookkeeping on the object itself: not configuration, never reported or removed.
FieldSet Bookkeeping() {
  json annotations = json::object();
  for (const char* key : {"kubectl.kubernetes.io/last-applied-configuration", "meta.helm.sh/release-name",
                          "meta.helm.sh/release-namespace"}) {
    annotations[std::string("f:") + key] = json::object();
  }
  return FieldSet::FromFieldsV1({{"f:metadata", {{"f:annotations", annotations}}}});
}

// A FieldsV1 key of a list item (by its keys, its value or its index).
bool IsItemKey(const std::string& key) {
  return util::StartsWith(key, "k:") || util::StartsWith(key, "v:") || util::StartsWith(key, "i:");
}

// Maps whose keys different hands set one by one: a key a tool set and tazuna does not is the tool's own.
bool IsKeyedMap(const std::string& key) {
  return key == "f:labels" || key == "f:annotations" || key == "f:matchLabels" || key == "f:nodeSelector";
}

const json* ChildOf(const json* node, const std::string& key) {
  if (node == nullptr || !node->is_object()) return nullptr;
  const auto it = node->find(key);
  return it == node->end() ? nullptr : &*it;
}

// Whether a tool's subtree (`tool`, under `key`) is one value tazuna's (`ours`) declares part of: no list
// items (each its own), no key of a keyed map tazuna does not set.
bool OneValue(const std::string& key, const json& tool, const json* ours) {
  for (auto it = tool.begin(); it != tool.end(); ++it) {
    if (it.key() == ".") continue;
    const json* mine = ChildOf(ours, it.key());
    if (IsItemKey(it.key()) || (IsKeyedMap(key) && mine == nullptr)) return false;
    if (it->is_object() && !OneValue(it.key(), *it, mine)) return false;
  }
  return true;
}

// The containers a tool made (it owns the node itself) that tazuna sets fields in without owning them (an
// Apply entry never owns a map or struct node, only list items): while the tool owns the container and the
// defaults the server filled in, what is left of it stays when the manifest drops it (a probe of defaults
// only, which the server refuses). `whole` gets those that are one value (a probe, a CR's object field): the
// tool lets go of all of it, so the manifest dropping it drops it whole, as for an object tazuna made. What
// the tool set there and the manifest does not stays live, owned by no one, until then: taking it over would
// delete it at the next sync, and a value set by hand (kubectl edit) would be lost. `node` gets the others (a
// keyed map, a list, a struct holding those), whose own node only the tool lets go: emptied by the manifest,
// it goes. Top-level fields (spec, data, metadata) stay as they are.
void FindContainers(const json& tool, const json& ours, int depth, json& whole, json& node) {
  for (auto it = tool.begin(); it != tool.end(); ++it) {
    const json* mine = ChildOf(&ours, it.key());
    if (it.key() == "." || !it->is_object() || mine == nullptr || !mine->is_object() || mine->empty()) continue;
    if (depth >= 2 && !IsItemKey(it.key()) && it->contains(".") && !mine->contains(".")) {
      if (!IsKeyedMap(it.key()) && OneValue(it.key(), *it, mine)) {
        whole[it.key()] = *it;
        continue;
      }
      node[it.key()]["."] = json::object();
    }
    json deeper_whole = json::object(), deeper_node = json::object();
    FindContainers(*it, *mine, depth + 1, deeper_whole, deeper_node);
    if (!deeper_whole.empty()) whole[it.key()] = std::move(deeper_whole);
    if (!deeper_node.empty()) node[it.key()].update(deeper_node);
  }
}

// What of a tool's `fields` it lets go of besides the fields it shares with tazuna: whole containers and
// container nodes (FindContainers).
FieldSet LetGo(const FieldSet& fields, const FieldSet& tazuna) {
  json whole = json::object(), node = json::object();
  FindContainers(fields.ToFieldsV1(), tazuna.ToFieldsV1(), 1, whole, node);
  return FieldSet::FromFieldsV1(whole).Union(FieldSet::FromFieldsV1(node)).Intersect(fields);
}

}  // namespace

FieldOwners ReadFieldOwners(const json& managed_fields, const TakeoverManagers& takeover) {
  FieldOwners owners;
  if (!managed_fields.is_array()) return owners;
  for (const auto& entry : managed_fields) {
    if (entry.is_object() && IsTazunaApply(entry)) {
      owners.has_tazuna = true;
      owners.tazuna_version = Field(entry, "apiVersion");
      owners.tazuna = owners.tazuna.Union(FieldsOf(entry));
    }
  }
  for (const auto& entry : managed_fields) {
    if (!entry.is_object() || IsTazunaApply(entry)) continue;
    const bool tool =
        owners.has_tazuna && IsTool(entry, takeover) && Field(entry, "apiVersion") == owners.tazuna_version;
    FieldSet& into = tool ? owners.tools : owners.others;
    into = into.Union(FieldsOf(entry));
    const std::string manager = Field(entry, "manager");
    auto& names = owners.tool_managers;
    if (tool && std::find(names.begin(), names.end(), manager) == names.end()) names.push_back(manager);
  }
  return owners;
}

FieldOwners WithWrittenFields(FieldOwners owners, const json& object) {
  const bool secret = object.is_object() && object.value("apiVersion", json()) == "v1" &&
                      object.value("kind", json()) == "Secret";
  if (secret) owners.tazuna = owners.tazuna.Union(owners.tazuna.Below("f:stringData").Under("f:data"));
  return owners;
}

std::shared_ptr<const TakeoverState> FindTakeover(const json& metadata, const TakeoverManagers& takeover) {
  if (!metadata.is_object()) return nullptr;
  static const json kNone = json::array();  // read only; no copy of every listed object's managedFields
  const auto found = metadata.find("managedFields");
  const json& fields = found != metadata.end() && found->is_array() ? *found : kNone;
  const bool any_tool = std::any_of(fields.begin(), fields.end(), [&](const json& entry) {
    return entry.is_object() && IsTool(entry, takeover);
  });
  // No managedFields at all: the first apply gives every field the object has to before-first-apply.
  const bool untracked = fields.empty() && takeover.names.count(kBeforeFirstApply) > 0;
  if (!any_tool && !untracked) return nullptr;
  const FieldOwners owners = ReadFieldOwners(fields, takeover);
  const bool nothing_shared = owners.tools.Intersect(owners.tazuna).empty();
  if (owners.has_tazuna && nothing_shared && LetGo(owners.tools, owners.tazuna).empty()) return nullptr;
  auto state = std::make_shared<TakeoverState>();
  const auto rv = metadata.find("resourceVersion");
  state->resource_version = rv != metadata.end() && rv->is_string() ? rv->get<std::string>() : "";
  state->managed_fields = fields;
  state->adopting = !owners.has_tazuna;
  return state;
}

std::optional<json> StripTakenOver(const json& managed_fields, const TakeoverManagers& takeover, FieldSet* moved) {
  const FieldOwners owners = ReadFieldOwners(managed_fields, takeover);
  if (!owners.has_tazuna) return std::nullopt;
  json out = json::array();
  bool changed = false;
  for (const auto& entry : managed_fields) {
    const bool tool =
        entry.is_object() && IsTool(entry, takeover) && Field(entry, "apiVersion") == owners.tazuna_version;
    if (!tool) {
      out.push_back(entry);
      continue;
    }
    const FieldSet fields = FieldsOf(entry);
    const FieldSet shared = fields.Intersect(owners.tazuna);
    const FieldSet let_go = LetGo(fields, owners.tazuna);
    changed = changed || !shared.empty() || !let_go.empty();
    if (moved != nullptr) *moved = moved->Union(shared);  // what the manifest no longer sets is removed
    const FieldSet rest = fields.Subtract(shared).Subtract(let_go);
    if (rest.empty()) continue;  // nothing of it is left: the entry goes, as kubectl's upgrade drops it
    json kept = entry;
    kept["fieldsV1"] = rest.ToFieldsV1();
    out.push_back(std::move(kept));
  }
  if (!changed) return std::nullopt;
  return out;
}

FieldSet Released(const FieldSet& moved, const FieldOwners& after) {
  const FieldSet owned = after.tazuna.Union(after.others).Union(after.tools.Subtract(moved));
  return moved.Subtract(owned).WithoutAncestorsOf(owned);
}

FieldSet Leftovers(const FieldOwners& owners) {
  const FieldSet owned = owners.tazuna.Union(owners.others);
  return owners.tools.Subtract(owned).WithoutAncestorsOf(owned).Subtract(Bookkeeping());
}

std::string DescribeFields(const std::vector<FieldPath>& paths, size_t limit) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < paths.size() && i < limit; ++i) parts.push_back(DescribeFieldPath(paths[i]));
  if (paths.size() > limit) parts.push_back(util::StrCat("and ", paths.size() - limit, " more"));
  return util::Join(parts, ", ");
}

}  // namespace tazuna::state
