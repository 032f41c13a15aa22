#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tazuna::state {

/// One path of a FieldSet: its elements as the server writes them in managedFields ("f:data", "f:b",
/// `k:{"name":"app"}`, `v:"x"`, "i:0").
using FieldPath = std::vector<std::string>;

/// A set of field paths, read from and written as the "FieldsV1" trie of a managedFields entry
/// (structured-merge-diff's format): `f:NAME` a field, `k:{KEYS}` a list item by its keys, `v:VALUE` a
/// set item, `i:N` an item by index. A node that is itself in the set holds "." (or is an empty
/// object, when it has no children in the set).
class FieldSet {
 public:
  FieldSet();
  ~FieldSet();
  FieldSet(const FieldSet&);
  FieldSet(FieldSet&&) noexcept;
  FieldSet& operator=(const FieldSet&);
  FieldSet& operator=(FieldSet&&) noexcept;

  /// The set a managedFields entry's `fieldsV1` holds; parts that are not objects are skipped.
  static FieldSet FromFieldsV1(const nlohmann::json& fields);
  /// The FieldsV1 trie of this set ({} when empty).
  nlohmann::json ToFieldsV1() const;

  bool empty() const;
  /// Paths in both sets.
  FieldSet Intersect(const FieldSet& other) const;
  /// Paths of this set that are not in `other`.
  FieldSet Subtract(const FieldSet& other) const;
  /// Paths in either set.
  FieldSet Union(const FieldSet& other) const;
  /// This set without the paths that lead to a path of `other` (its proper prefixes): a map or list
  /// item that still holds something `other` owns is not free, even if its own entry is.
  FieldSet WithoutAncestorsOf(const FieldSet& other) const;
  /// The paths under `key`, without it; empty when there are none.
  FieldSet Below(const std::string& key) const;
  /// Every path of this set under `key` (a set whose one node `key` holds this one).
  FieldSet Under(const std::string& key) const;
  /// Whether `path` is in the set.
  bool Contains(const FieldPath& path) const;
  /// Whether the set holds paths below `path` (then `path` is a map, struct or list item owned field by field).
  bool HasBelow(const FieldPath& path) const;
  /// Whether the set owns the value at `path` whole: the path or one above it is in the set with nothing of
  /// it below (a scalar, or a list or map owned as one value).
  bool OwnsWhole(const FieldPath& path) const;
  /// The outermost paths of the set: a path whose prefix is in the set is left out (removing the
  /// prefix removes it too). In the set's order (keys sorted).
  std::vector<FieldPath> TopPaths() const;
  /// The paths of the set's values: members with nothing of them in the set below (a node's own "." entry
  /// beside owned children says only that the node exists, so its children are listed instead).
  std::vector<FieldPath> ValuePaths() const;
  /// The part of `object` this set holds: of a map, the fields the set names (each projected in turn); of a
  /// list, the items it names (by keys, value or index), in the object's order; a member with nothing of it
  /// in the set below, whole. What the set names that `object` lacks is left out. Null for an empty set.
  nlohmann::json Project(const nlohmann::json& object) const;

 private:
  struct Child;
  const FieldSet* Find(const std::string& key) const;
  /// A set with `member` whose children are child(mine, theirs or null) for each of this set's children,
  /// the empty ones left out (the walk Intersect, Subtract and WithoutAncestorsOf share).
  template <class F>
  FieldSet Zip(const FieldSet& other, bool member, F child) const;
  void TopPaths(FieldPath& prefix, std::vector<FieldPath>& out) const;
  void ValuePaths(FieldPath& prefix, std::vector<FieldPath>& out) const;

  bool member_ = false;
  std::vector<Child> children_;  ///< sorted by key, none empty
};

/// `path` for people: `data.b`, `metadata.labels.old`, `metadata.annotations[example.com/note]`,
/// `spec.template.spec.containers[name=app].env[name=OLD]`, `spec.finalizers[x]`, `spec.args[0]`.
std::string DescribeFieldPath(const FieldPath& path);

/// The value at `path` in `object`, or null when there is none (a list item is found by its keys, its value
/// or its index; an item that leaves out keys the server defaults, as a port's protocol, is found by the keys
/// it has when no other item has them).
const nlohmann::json* FindField(const nlohmann::json& object, const FieldPath& path);

/// Removes the value at `path` from `object` (a field, or a list item); false when there is none.
bool RemoveField(nlohmann::json& object, const FieldPath& path);

}  // namespace tazuna::state
