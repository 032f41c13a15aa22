#include "state/apply/drift_fields.hpp"

#include <algorithm>
#include <map>

#include "state/apply/field_takeover.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;

namespace {

// The segments of `path` as a rule's path names them: each field starts one ("spec", "replicas"); a list
// item, or a key written in brackets, is added to the segment before it ("containers[name=app]",
// "annotations[example.com/note]").
std::vector<std::string> Segments(const FieldPath& path) {
  std::vector<std::string> out;
  for (const auto& element : path) {
    std::string d = DescribeFieldPath({element});
    if (!d.empty() && d.front() == '[' && !out.empty()) {
      out.back() += d;
    } else {
      out.push_back(std::move(d));
    }
  }
  return out;
}

// A rule's path split at the dots outside brackets.
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
  return out;
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

// Whether `set` holds a path below `path`: then `path` is a map, struct or list item tazuna sets field by
// field, and another manager holding the node itself (its "." entry) owns no value of it.
bool HoldsBelow(const FieldSet& set, const FieldPath& path) {
  FieldSet below = set;
  for (const auto& element : path) {
    below = below.Below(element);
    if (below.empty()) return false;
  }
  return true;
}

bool Yielded(const std::vector<manifest::YieldRule>& rules, const ObjectIdentity& id, const std::string& manager,
             const FieldPath& path) {
  return std::any_of(rules.begin(), rules.end(),
                     [&](const manifest::YieldRule& r) { return Yields(r, id, manager, path); });
}

}  // namespace

std::shared_ptr<const LiveFields> ReadLiveFields(const json& metadata) {
  const json& entries = util::JsonArray(metadata, "managedFields");
  const auto other = [](const json& e) {
    return util::JsonString(e, "manager") != kTazunaManager && util::JsonString(e, "subresource") != "status";
  };
  if (std::none_of(entries.begin(), entries.end(), other)) return nullptr;
  auto live = std::make_shared<LiveFields>();
  for (const auto& e : entries) {
    const std::string manager = util::JsonString(e, "manager");
    const std::string subresource = util::JsonString(e, "subresource");
    if (subresource == "status") continue;
    FieldSet fields = FieldSet::FromFieldsV1(util::JsonObject(e, "fieldsV1"));
    if (manager == kTazunaManager) {
      live->tazuna = live->tazuna.Union(fields);
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
    for (FieldPath& path : entry.fields.Subtract(live.tazuna).TopPaths()) {
      if (HoldsBelow(live.tazuna, path)) continue;
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
    for (const FieldPath& path : entry.fields.Subtract(live.tazuna).TopPaths()) {
      if (!Yielded(BuiltinYieldRules(), id, entry.manager, path) && !Yielded(rules, id, entry.manager, path)) continue;
      if (RemoveField(object, path)) out.push_back(DescribeFieldPath(path));
    }
  }
  return out;
}

std::string DescribeTaken(const std::vector<TakenField>& taken) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> paths;
  for (const auto& t : taken) {
    if (paths.count(t.manager) == 0) order.push_back(t.manager);
    paths[t.manager].push_back(DescribeFieldPath(t.path));
  }
  std::vector<std::string> parts;
  for (const auto& manager : order) {
    std::vector<std::string>& p = paths[manager];
    const size_t more = p.size() > 3 ? p.size() - 3 : 0;
    p.resize(p.size() - more);
    std::string text = util::StrCat(manager, " (", util::Join(p, ", "));
    if (more > 0) text += util::StrCat(" and ", more, " more");
    parts.push_back(text + ")");
  }
  return util::Join(parts, ", ");
}

}  // namespace tazuna::state
