#pragma once

#include <string>
#include <string_view>

namespace tazuna::util {

/// The two parts of a Kubernetes apiVersion.
struct GroupVersion {
  std::string group;    ///< "" for the core group
  std::string version;  ///< "v1"
  bool operator==(const GroupVersion&) const = default;
};

/// The one apiVersion splitter: "apps/v1" -> {"apps","v1"}; "v1" -> {"","v1"}; "" -> {"",""}.
GroupVersion SplitApiVersion(std::string_view api_version);

}  // namespace tazuna::util
