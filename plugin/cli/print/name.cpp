#include "cli/print/name.hpp"

#include "util/strings.hpp"

namespace tazuna::cli::print {

std::string ResourceName(const ObjectRef& ref) {
  if (ref.kind.empty()) return ref.name;
  return util::ToLower(ref.kind) + (ref.group.empty() ? "" : "." + ref.group) + "/" + ref.name;
}

}  // namespace tazuna::cli::print
