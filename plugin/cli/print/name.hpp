#pragma once

#include <string>

namespace tazuna::cli::print {

/// One object as `-o name` names it.
struct ObjectRef {
  std::string group;  ///< API group, "" for the core group
  std::string kind;   ///< as in the object (ConfigMap); "" when unknown
  std::string name;
  bool operator==(const ObjectRef&) const = default;
};

/// kubectl's resource/name form, as `kubectl get -o name` prints it: `kind[.group]/name` with the kind
/// lower-cased (`configmap/foo`, `deployment.apps/web`). A ref without a kind (a state key that does not
/// parse) gives its name alone.
std::string ResourceName(const ObjectRef& ref);

}  // namespace tazuna::cli::print
