#include "state/apply/field_set.hpp"

#include <algorithm>
#include <charconv>
#include <map>

#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;

struct FieldSet::Child {
  std::string key;
  FieldSet set;
};

FieldSet::FieldSet() = default;
FieldSet::~FieldSet() = default;
FieldSet::FieldSet(const FieldSet&) = default;
FieldSet::FieldSet(FieldSet&&) noexcept = default;
FieldSet& FieldSet::operator=(const FieldSet&) = default;
FieldSet& FieldSet::operator=(FieldSet&&) noexcept = default;

FieldSet FieldSet::FromFieldsV1(const json& fields) {
  FieldSet set;
  if (!fields.is_object()) return set;
  for (const auto& [key, value] : fields.items()) {  // nlohmann's objects iterate in key order
    if (key == ".") {
      set.member_ = true;
      continue;
    }
    if (!value.is_object()) continue;
    FieldSet child = FromFieldsV1(value);
    if (value.empty()) child.member_ = true;  // a leaf: `"f:b": {}`
    if (!child.empty()) set.children_.push_back(Child{key, std::move(child)});
  }
  return set;
}

json FieldSet::ToFieldsV1() const {
  json out = json::object();
  for (const auto& c : children_) {
    json node = c.set.ToFieldsV1();
    if (c.set.member_ && !node.empty()) node["."] = json::object();
    out[c.key] = std::move(node);
  }
  return out;
}

bool FieldSet::empty() const { return !member_ && children_.empty(); }

const FieldSet* FieldSet::Find(const std::string& key) const {
  const auto it = std::lower_bound(children_.begin(), children_.end(), key,
                                   [](const Child& c, const std::string& k) { return c.key < k; });
  return it != children_.end() && it->key == key ? &it->set : nullptr;
}

template <class F>
FieldSet FieldSet::Zip(const FieldSet& other, bool member, F child) const {
  FieldSet out;
  out.member_ = member;
  for (const auto& c : children_) {
    FieldSet rest = child(c.set, other.Find(c.key));
    if (!rest.empty()) out.children_.push_back(Child{c.key, std::move(rest)});
  }
  return out;
}

FieldSet FieldSet::Intersect(const FieldSet& other) const {
  return Zip(other, member_ && other.member_, [](const FieldSet& mine, const FieldSet* theirs) {
    return theirs == nullptr ? FieldSet() : mine.Intersect(*theirs);
  });
}

FieldSet FieldSet::Subtract(const FieldSet& other) const {
  return Zip(other, member_ && !other.member_, [](const FieldSet& mine, const FieldSet* theirs) {
    return theirs == nullptr ? mine : mine.Subtract(*theirs);
  });
}

FieldSet FieldSet::Union(const FieldSet& other) const {
  FieldSet out;
  out.member_ = member_ || other.member_;
  auto mine = children_.begin();
  auto theirs = other.children_.begin();
  while (mine != children_.end() || theirs != other.children_.end()) {
    if (theirs == other.children_.end() || (mine != children_.end() && mine->key < theirs->key)) {
      out.children_.push_back(*mine++);
    } else if (mine == children_.end() || theirs->key < mine->key) {
      out.children_.push_back(*theirs++);
    } else {
      out.children_.push_back(Child{mine->key, mine->set.Union(theirs->set)});
      ++mine;
      ++theirs;
    }
  }
  return out;
}

FieldSet FieldSet::WithoutAncestorsOf(const FieldSet& other) const {
  // `other` has a node here: this path leads to (or is) something `other` holds.
  const bool free = member_ && other.children_.empty() && !other.member_;
  return Zip(other, free, [](const FieldSet& mine, const FieldSet* theirs) {
    return theirs == nullptr ? mine : mine.WithoutAncestorsOf(*theirs);
  });
}

FieldSet FieldSet::Below(const std::string& key) const {
  const FieldSet* child = Find(key);
  return child == nullptr ? FieldSet() : *child;
}

FieldSet FieldSet::Under(const std::string& key) const {
  FieldSet out;
  if (!empty()) out.children_.push_back(Child{key, *this});
  return out;
}

bool FieldSet::Contains(const FieldPath& path) const {
  const FieldSet* node = this;
  for (const auto& key : path) {
    node = node->Find(key);
    if (node == nullptr) return false;
  }
  return !path.empty() && node->member_;
}

bool FieldSet::HasBelow(const FieldPath& path) const {
  const FieldSet* node = this;
  for (const auto& key : path) {
    node = node->Find(key);
    if (node == nullptr) return false;
  }
  return !node->children_.empty();
}

bool FieldSet::OwnsWhole(const FieldPath& path) const {
  const FieldSet* node = this;
  for (const auto& key : path) {
    node = node->Find(key);
    if (node == nullptr) return false;
    if (node->member_ && node->children_.empty()) return true;
  }
  return false;
}

void FieldSet::TopPaths(FieldPath& prefix, std::vector<FieldPath>& out) const {
  for (const auto& c : children_) {
    prefix.push_back(c.key);
    if (c.set.member_) {
      out.push_back(prefix);
    } else {
      c.set.TopPaths(prefix, out);
    }
    prefix.pop_back();
  }
}

void FieldSet::ValuePaths(FieldPath& prefix, std::vector<FieldPath>& out) const {
  for (const auto& c : children_) {
    prefix.push_back(c.key);
    if (c.set.children_.empty()) {
      if (c.set.member_) out.push_back(prefix);
    } else {
      c.set.ValuePaths(prefix, out);
    }
    prefix.pop_back();
  }
}

std::vector<FieldPath> FieldSet::ValuePaths() const {
  std::vector<FieldPath> out;
  FieldPath prefix;
  ValuePaths(prefix, out);
  return out;
}

std::vector<FieldPath> FieldSet::TopPaths() const {
  std::vector<FieldPath> out;
  FieldPath prefix;
  TopPaths(prefix, out);
  return out;
}

namespace {

std::string Scalar(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// `k:{"name":"app"}` -> `[name=app]`; `v:"x"` -> `[x]`; `i:3` -> `[3]`; `f:a.b` -> `[a.b]`.
std::string DescribeElement(const std::string& element, bool first) {
  const std::string body = element.size() >= 2 ? element.substr(2) : element;
  if (util::StartsWith(element, "f:")) {
    if (body.find_first_of("./[]") != std::string::npos) return "[" + body + "]";
    return first ? body : "." + body;
  }
  if (util::StartsWith(element, "i:")) return "[" + body + "]";
  const json value = json::parse(body, nullptr, false);
  if (util::StartsWith(element, "k:") && value.is_object()) {
    std::vector<std::string> keys;
    for (const auto& [k, v] : value.items()) keys.push_back(k + "=" + Scalar(v));
    return "[" + util::Join(keys, ",") + "]";
  }
  return "[" + (value.is_discarded() ? body : Scalar(value)) + "]";
}

// Whether `item` has the `keys`; with `lenient`, a key it leaves out (one the server defaults) matches too.
bool MatchesKeys(const json& item, const json& keys, bool lenient = false) {
  if (!item.is_object()) return false;
  bool any = false;
  for (const auto& [k, v] : keys.items()) {
    const auto it = item.find(k);
    if (it == item.end() && lenient) continue;
    if (it == item.end() || *it != v) return false;
    any = true;
  }
  return any;
}

// The index of the list item `element` (k:, v: or i:) names in `list`, or -1.
long FindItem(const json& list, const std::string& element) {
  if (!list.is_array() || element.size() < 2) return -1;
  const std::string body = element.substr(2);
  if (util::StartsWith(element, "i:")) {
    size_t index = 0;
    const auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), index);
    return ec == std::errc() && end == body.data() + body.size() && index < list.size() ? static_cast<long>(index) : -1;
  }
  const json value = json::parse(body, nullptr, false);
  if (value.is_discarded()) return -1;
  for (size_t i = 0; i < list.size(); ++i) {
    const bool found = util::StartsWith(element, "k:") ? value.is_object() && MatchesKeys(list[i], value)
                                                        : util::StartsWith(element, "v:") && list[i] == value;
    if (found) return static_cast<long>(i);
  }
  if (!util::StartsWith(element, "k:") || !value.is_object()) return -1;
  // As written in a manifest, an item may leave out a key the server defaults (a port's protocol: TCP).
  long only = -1;
  for (size_t i = 0; i < list.size(); ++i) {
    if (!MatchesKeys(list[i], value, true)) continue;
    if (only >= 0) return -1;  // more than one: which is meant cannot be told
    only = static_cast<long>(i);
  }
  return only;
}

// The child of `node` (a json or a const json) that `element` names, or null.
template <class Json>
Json* Step(Json& node, const std::string& element) {
  if (util::StartsWith(element, "f:")) {
    if (!node.is_object()) return nullptr;
    const auto it = node.find(element.substr(2));
    return it == node.end() ? nullptr : &*it;
  }
  const long index = FindItem(node, element);
  return index < 0 ? nullptr : &node[static_cast<size_t>(index)];
}

}  // namespace

json FieldSet::Project(const json& object) const {
  if (empty()) return nullptr;
  if (children_.empty()) return object;
  if (object.is_object()) {
    json out = json::object();
    for (const auto& c : children_) {
      if (!util::StartsWith(c.key, "f:")) continue;
      const auto it = object.find(c.key.substr(2));
      if (it != object.end()) out[it.key()] = c.set.Project(*it);
    }
    return out;
  }
  if (object.is_array()) {
    std::map<long, json> items;  // by their index in `object`
    for (const auto& c : children_) {
      const long index = FindItem(object, c.key);
      if (index < 0 || items.count(index)) continue;
      items[index] = util::StartsWith(c.key, "v:") ? object[static_cast<size_t>(index)]
                                                    : c.set.Project(object[static_cast<size_t>(index)]);
    }
    json out = json::array();
    for (auto& [index, item] : items) out.push_back(std::move(item));
    return out;
  }
  return object;
}

std::string DescribeFieldPath(const FieldPath& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) out += DescribeElement(path[i], i == 0);
  return out;
}

const json* FindField(const json& object, const FieldPath& path) {
  const json* node = &object;
  for (const auto& element : path) {
    node = Step(*node, element);
    if (node == nullptr) return nullptr;
  }
  return path.empty() ? nullptr : node;
}

bool RemoveField(json& object, const FieldPath& path) {
  if (path.empty()) return false;
  json* parent = &object;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    parent = Step(*parent, path[i]);
    if (parent == nullptr) return false;
  }
  const std::string& last = path.back();
  if (util::StartsWith(last, "f:")) return parent->is_object() && parent->erase(last.substr(2)) > 0;
  const long index = FindItem(*parent, last);
  if (index < 0) return false;
  parent->erase(static_cast<size_t>(index));
  return true;
}

}  // namespace tazuna::state
