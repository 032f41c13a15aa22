#include "cli/print/list.hpp"

#include "util/yaml_emit.hpp"

namespace tazuna::cli::print {

void PrintObject(std::ostream& out, const nlohmann::json& object, const std::string& format) {
  if (format == "yaml") {
    out << util::EmitYaml(object);
  } else {
    out << object.dump(4, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
}

}  // namespace tazuna::cli::print
