#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace tazuna::state {

/// Label every object tazuna applies carries (`kubectl get -A -l app.kubernetes.io/managed-by=tazuna`).
inline constexpr char kManagedByLabel[] = "app.kubernetes.io/managed-by";
inline constexpr char kManagedByValue[] = "tazuna";
/// Annotation naming the manifest that applied the object.
inline constexpr char kManifestAnnotation[] = "tazuna.pepabo.com/manifest";
/// Annotation naming the repository (the state's origin, OriginMark) whose sync applied the object.
inline constexpr char kOriginAnnotation[] = "tazuna.pepabo.com/origin";

/// The ownership marks of one applied object: its manifest and, when known, the origin of its state
/// (OriginMark; empty: no origin annotation is set).
struct Marks {
  std::string manifest;
  std::string origin;
};

/// `object` as tazuna applies it: a copy with the managed-by label, the manifest and origin annotations
/// and the ApplySet membership label (applyset.kubernetes.io/part-of) set.
/// The marks are outside the content hash (it is computed from the rendered object), so hashes stay
/// those of the Go tool; and since tazuna's field manager always owns them, an applied object always
/// shows tazuna among its managers, even one whose manifest holds nothing but a name.
nlohmann::json WithOwnershipMarks(const nlohmann::json& object, const Marks& marks);
/// Only the metadata of WithOwnershipMarks(object, marks), for kube::ApplyOptions::metadata.
nlohmann::json MarkedMetadata(const nlohmann::json& object, const Marks& marks);
/// True when the live object carries these marks: its manifest annotation is marks.manifest and, when
/// marks.origin is set, its origin annotation is marks.origin.
bool CarriesMarks(const nlohmann::json& live, const Marks& marks);

}  // namespace tazuna::state
