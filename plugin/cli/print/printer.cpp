#include "cli/print/printer.hpp"

#include <algorithm>

#include "util/strings.hpp"

namespace tazuna::cli::print {

util::Result<Format> ParseFormat(const std::string& output, const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), output) != allowed.end()) {
    if (output == "json") return Format::kJson;
    if (output == "yaml") return Format::kYaml;
    if (output == "wide") return Format::kWide;
    if (output == "name") return Format::kName;
    return Format::kTable;
  }
  std::vector<std::string> sorted = allowed;
  std::sort(sorted.begin(), sorted.end());
  return util::MakeError(util::ErrorKind::kUsage,
                         util::StrCat("unable to match a printer suitable for the output format \"", output,
                                      "\", allowed formats are: ", util::Join(sorted, ",")));
}

nlohmann::json ListOf(std::vector<nlohmann::json> items) {
  nlohmann::json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", nlohmann::json::array()}};
  for (auto& item : items) list["items"].push_back(std::move(item));
  return list;
}

}  // namespace tazuna::cli::print
