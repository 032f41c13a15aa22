#include "cli/report_error.hpp"

namespace tazuna::cli {

using util::ErrorKind;

std::string ErrorText(const util::Error& error) {
  switch (error.kind) {
    case ErrorKind::kApi:
      if (error.reason == "Invalid") return error.message;  // already kubectl's "The K \"n\" is invalid: ..."
      if (error.reason.empty()) return "Error from server: " + error.message;
      return "Error from server (" + error.reason + "): " + error.message;
    case ErrorKind::kUnauthorized:
      return "error: You must be logged in to the server (" + error.message + ")";
    case ErrorKind::kTransport:
    case ErrorKind::kConfig:
      return error.message;  // kubectl's own prefixes: "The connection to the server ...", "Error in configuration: ..."
    default:
      return "error: " + error.message;
  }
}

int ReportError(std::ostream& err, const util::Error& error) {
  err << ErrorText(error) << '\n';
  for (const auto& line : error.detail_lines) err << line << '\n';
  if (!error.hint.empty()) err << error.hint << '\n';
  err.flush();
  return error.part_way ? kExitPartWay : kExitRefused;
}

}  // namespace tazuna::cli
