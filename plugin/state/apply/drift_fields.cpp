#include "state/apply/drift_fields.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "state/apply/field_takeover.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;

namespace {

// The segments of `path` as a rule's path names them: each field or map key starts one ("spec",
// "replicas", "example.com/note"); a list item is added to the segment before it ("containers[name=app]").
std::vector<std::string> Segments(const FieldPath& path) {
  std::vector<std::string> out;
  for (const auto& element : path) {
    if (util::StartsWith(element, "f:") || out.empty()) {
      out.push_back(util::StartsWith(element, "f:") ? element.substr(2) : DescribeFieldPath({element}));
    } else {
      out.back() += DescribeFieldPath({element});
    }
  }
  return out;
}

// A rule's path split at the dots outside brackets; a map key in brackets is a segment of its own
// (`annotations[example.com/note]` is `annotations`, `example.com/note`), a list item stays with its list.
std::vector<std::string> RuleSegments(const std::string& path) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (const char c : path) {
    if (c == '[') ++depth;
    if (c == ']' && depth > 0) --depth;
    if (c == '.' && depth == 0) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  std::vector<std::string> split;
  for (auto& seg : out) {
    const size_t open = seg.find('[');
    const std::string inside = open == std::string::npos ? "" : seg.substr(open + 1, seg.size() - open - 2);
    if (open != std::string::npos && seg.back() == ']' && inside != "*" && inside.find('=') == std::string::npos) {
      split.push_back(seg.substr(0, open));
      split.push_back(inside);
    } else {
      split.push_back(std::move(seg));
    }
  }
  return split;
}

// `rule` ("containers", "containers[*]", "containers[name=app]") names the segment `seg`.
bool SegmentMatches(const std::string& rule, const std::string& seg) {
  if (rule == seg) return true;
  std::string name = rule;
  if (util::EndsWith(rule, "[*]")) {
    name = rule.substr(0, rule.size() - 3);
  } else if (rule.find('[') != std::string::npos) {
    return false;
  }
  return util::StartsWith(seg, name + "[");
}

bool PathMatches(const std::string& rule, const std::vector<std::string>& segments) {
  const std::vector<std::string> want = RuleSegments(rule);
  if (want.size() > segments.size()) return false;
  for (size_t i = 0; i < want.size(); ++i) {
    if (!SegmentMatches(want[i], segments[i])) return false;
  }
  return true;
}

bool Yielded(const std::vector<manifest::YieldRule>& rules, const ObjectIdentity& id, const std::string& manager,
             const FieldPath& path) {
  return std::any_of(rules.begin(), rules.end(),
                     [&](const manifest::YieldRule& r) { return Yields(r, id, manager, path); });
}

}  // namespace

std::shared_ptr<const LiveFields> ReadLiveFields(const json& metadata, bool always) {
  const json& entries = util::JsonArray(metadata, "managedFields");
  const auto other = [](const json& e) {
    return util::JsonString(e, "manager") != kTazunaManager && util::JsonString(e, "subresource") != "status";
  };
  if (!always && std::none_of(entries.begin(), entries.end(), other)) return nullptr;
  auto live = std::make_shared<LiveFields>();
  for (const auto& e : entries) {
    const std::string manager = util::JsonString(e, "manager");
    const std::string subresource = util::JsonString(e, "subresource");
    if (subresource == "status") continue;
    FieldSet fields = FieldSet::FromFieldsV1(util::JsonObject(e, "fieldsV1"));
    if (manager == kTazunaManager) {
      live->tazuna = live->tazuna.Union(fields);
      live->tazuna_update |= util::JsonString(e, "operation") == "Update";
    } else {
      live->others.push_back({manager, subresource, std::move(fields)});
    }
  }
  return live;
}

const std::vector<manifest::YieldRule>& BuiltinYieldRules() {
  static const std::vector<manifest::YieldRule> kRules = {
      {"", "", "", "", {"spec.replicas"}, {"kube-controller-manager"}},
      {"admissionregistration.k8s.io", "", "", "", {"webhooks.clientConfig.caBundle"}, {}},
      {"apiregistration.k8s.io", "APIService", "", "", {"spec.caBundle"}, {}},
      {"apiextensions.k8s.io", "CustomResourceDefinition", "", "", {"spec.conversion.webhook.clientConfig.caBundle"}, {}},
      // An aggregated ClusterRole's rules are the aggregation controller's (the manifest's are a placeholder).
      {"rbac.authorization.k8s.io", "ClusterRole", "", "", {"rules"}, {"clusterrole-aggregation-controller"}},
  };
  return kRules;
}

bool Yields(const manifest::YieldRule& rule, const ObjectIdentity& id, const std::string& manager, const FieldPath& path) {
  const std::string group = id.group.empty() ? "core" : id.group;
  if (!rule.group.empty() && rule.group != group) return false;
  if (!rule.kind.empty() && rule.kind != id.kind) return false;
  if (!rule.name.empty() && rule.name != id.name) return false;
  if (!rule.namespace_name.empty() && rule.namespace_name != id.namespace_name) return false;
  if (!rule.managers.empty() && std::find(rule.managers.begin(), rule.managers.end(), manager) == rule.managers.end()) {
    return false;
  }
  if (rule.paths.empty()) return true;
  const std::vector<std::string> segments = Segments(path);
  return std::any_of(rule.paths.begin(), rule.paths.end(), [&](const std::string& p) { return PathMatches(p, segments); });
}

std::vector<TakenField> TakenFields(const json* desired, const ObjectIdentity& id, const LiveFields& live,
                                    const std::vector<manifest::YieldRule>& rules) {
  std::vector<TakenField> out;
  for (const auto& entry : live.others) {
    for (FieldPath& path : entry.fields.Subtract(live.tazuna).ValuePaths()) {
      if (live.tazuna.HasBelow(path)) continue;  // its node only: no value of it
      if (!path.empty() && path[0] == "f:status") continue;  // a status is never applied as tazuna's
      if (Yielded(BuiltinYieldRules(), id, entry.manager, path) || Yielded(rules, id, entry.manager, path)) continue;
      if (desired != nullptr) {
        const json* value = FindField(*desired, path);
        if (value == nullptr || value->is_null()) continue;  // not a field tazuna applies
      }
      out.push_back({std::move(path), entry.manager});
    }
  }
  return out;
}

std::vector<std::string> StripYielded(json& object, const ObjectIdentity& id, const LiveFields& live,
                                      const std::vector<manifest::YieldRule>& rules) {
  std::vector<std::string> out;
  for (const auto& entry : live.others) {
    for (const FieldPath& path : entry.fields.Subtract(live.tazuna).ValuePaths()) {
      if (live.tazuna.HasBelow(path)) continue;  // tazuna's fields are below it: never strip them
      if (!Yielded(BuiltinYieldRules(), id, entry.manager, path) && !Yielded(rules, id, entry.manager, path)) continue;
      if (RemoveField(object, path)) out.push_back(DescribeFieldPath(path));
    }
  }
  return out;
}

namespace {

// Fields of every object that no apply owns: what the server sets, and what no apply writes.
bool NeverOwned(const FieldPath& path, const json& desired) {
  static const std::vector<FieldPath> kPaths = {
      {"f:apiVersion"}, {"f:kind"}, {"f:status"}, {"f:metadata", "f:name"}, {"f:metadata", "f:namespace"},
      {"f:metadata", "f:creationTimestamp"}, {"f:metadata", "f:generateName"}, {"f:metadata", "f:uid"},
      {"f:metadata", "f:resourceVersion"}, {"f:metadata", "f:generation"}, {"f:metadata", "f:managedFields"},
      {"f:metadata", "f:selfLink"}, {"f:metadata", "f:deletionTimestamp"}, {"f:metadata", "f:deletionGracePeriodSeconds"}};
  if (std::find(kPaths.begin(), kPaths.end(), path) != kPaths.end()) return true;
  // A Secret's stringData is written into data and never stored.
  return path.size() == 1 && path[0] == "f:stringData" && util::JsonString(desired, "kind") == "Secret";
}

// Whether any of `live`'s sets answers `test` for `path`.
template <class Test>
bool AnySet(const LiveFields& live, Test test) {
  return test(live.tazuna) ||
         std::any_of(live.others.begin(), live.others.end(), [&](const LiveFields::Entry& e) { return test(e.fields); });
}

// The item elements (k:, v:) the sets of `live` hold directly under the list at `path`.
std::vector<std::string> ItemElements(const LiveFields& live, const FieldPath& path) {
  std::set<std::string> out;
  const auto collect = [&](const FieldSet& s) {
    for (const auto& p : s.ValuePaths()) {
      if (p.size() > path.size() && std::equal(path.begin(), path.end(), p.begin())) out.insert(p[path.size()]);
    }
    return false;
  };
  AnySet(live, collect);
  return {out.begin(), out.end()};
}

// The element of `elements` (a list's owned items) that names `item`: by its keys (one it leaves out that the
// server defaulted, as a port's protocol, may be missing), or by its value for a set. "" when none does.
std::string ItemElement(const json& item, const std::vector<std::string>& elements) {
  std::string found;
  for (const auto& e : elements) {
    if (util::StartsWith(e, "v:")) {
      if (json::parse(e.substr(2), nullptr, false) == item) return e;
      continue;
    }
    if (!util::StartsWith(e, "k:") || !item.is_object()) continue;
    const json keys = json::parse(e.substr(2), nullptr, false);
    if (!keys.is_object()) continue;
    bool match = true, any = false;
    for (const auto& [k, v] : keys.items()) {
      const auto it = item.find(k);
      if (it == item.end()) continue;
      match = match && *it == v;
      any = true;
    }
    if (!match || !any) continue;
    if (!found.empty()) return "";  // two items the keys it has cannot tell apart
    found = e;
  }
  return found;
}

// An element naming `item` for a row's FIELDS when no set holds it: its keys as the list's other items are
// keyed, or its value.
std::string UnheldElement(const json& item, const std::vector<std::string>& elements) {
  for (const auto& e : elements) {
    if (!util::StartsWith(e, "k:") || !item.is_object()) continue;
    const json keys = json::parse(e.substr(2), nullptr, false);
    if (!keys.is_object()) continue;
    json mine = json::object();
    for (const auto& [k, v] : keys.items()) {
      if (item.contains(k)) mine[k] = item[k];
    }
    if (!mine.empty()) return "k:" + mine.dump();
  }
  return "v:" + item.dump();
}

void CollectUnowned(const json& node, FieldPath& path, const json& desired, const LiveFields& live,
                    std::vector<FieldPath>& out);

// The items of the list `list` at `path`, owned item by item: an item no set holds is unowned (removed), one
// held is looked into. A list whose items are not keyed (owned by index) is not looked into.
void CollectUnownedItems(const json& list, FieldPath& path, const json& desired, const LiveFields& live,
                         std::vector<FieldPath>& out) {
  const std::vector<std::string> elements = ItemElements(live, path);
  if (std::none_of(elements.begin(), elements.end(),
                   [](const std::string& e) { return util::StartsWith(e, "k:") || util::StartsWith(e, "v:"); })) {
    return;
  }
  for (const auto& item : list) {
    const std::string element = ItemElement(item, elements);
    if (element.empty()) {
      path.push_back(UnheldElement(item, elements));
      out.push_back(path);
      path.pop_back();
    } else if (item.is_object()) {
      path.push_back(element);
      CollectUnowned(item, path, desired, live, out);
      path.pop_back();
    }
  }
}

void CollectUnowned(const json& node, FieldPath& path, const json& desired, const LiveFields& live,
                    std::vector<FieldPath>& out) {
  for (const auto& [key, value] : node.items()) {
    path.push_back("f:" + key);
    const bool empty = value.is_null() || ((value.is_object() || value.is_array()) && value.empty());
    const auto whole = [&](const FieldSet& s) { return s.OwnsWhole(path); };
    const auto below = [&](const FieldSet& s) { return s.HasBelow(path); };
    const auto itself = [&](const FieldSet& s) { return s.Contains(path); };
    if (empty || NeverOwned(path, desired) || AnySet(live, whole)) {
      // nothing to own, or owned as one value
    } else if (value.is_object()) {
      CollectUnowned(value, path, desired, live, out);  // a map owned field by field, or its fields unowned
    } else if (value.is_array() && AnySet(live, below)) {
      CollectUnownedItems(value, path, desired, live, out);  // a list owned item by item
    } else if (!AnySet(live, below) && !AnySet(live, itself)) {
      out.push_back(path);
    }
    path.pop_back();
  }
}

}  // namespace

std::vector<FieldPath> UnownedFields(const json& desired, const ObjectIdentity& id, const LiveFields& live,
                                     const std::vector<manifest::YieldRule>& rules) {
  std::vector<FieldPath> out;
  FieldPath path;
  if (desired.is_object()) CollectUnowned(desired, path, desired, live, out);
  std::erase_if(out, [&](const FieldPath& p) { return Yielded(BuiltinYieldRules(), id, "", p) || Yielded(rules, id, "", p); });
  return out;
}

std::string DescribeTaken(const std::vector<TakenField>& taken) {
  std::map<std::string, std::vector<std::string>> paths;  // by manager, in name order (managedFields' varies)
  for (const auto& t : taken) paths[t.manager].push_back(DescribeFieldPath(t.path));
  std::vector<std::string> parts;
  for (auto& [manager, p] : paths) {
    const size_t more = p.size() > 3 ? p.size() - 3 : 0;
    p.resize(p.size() - more);
    std::string text = util::StrCat(manager, " (", util::Join(p, ", "));
    if (more > 0) text += util::StrCat(" and ", more, " more");
    parts.push_back(text + ")");
  }
  return util::Join(parts, ", ");
}

}  // namespace tazuna::state
