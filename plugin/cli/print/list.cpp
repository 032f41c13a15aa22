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

void PrintList(std::ostream& out, std::vector<nlohmann::json> items, const std::string& format) {
  nlohmann::json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", nlohmann::json::array()}};
  for (auto& item : items) list["items"].push_back(std::move(item));  // moved: large lists are not copied
  items.clear();
  PrintObject(out, list, format);
}

}  // namespace tazuna::cli::print
