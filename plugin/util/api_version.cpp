#include "util/api_version.hpp"

namespace tazuna::util {

GroupVersion SplitApiVersion(std::string_view api_version) {
  const size_t slash = api_version.find('/');
  if (slash == std::string_view::npos) return {"", std::string(api_version)};
  return {std::string(api_version.substr(0, slash)), std::string(api_version.substr(slash + 1))};
}

}  // namespace tazuna::util
