#include "cli/report_error.hpp"

namespace tazuna::cli {

using util::ErrorKind;

int ReportError(std::ostream& err, const util::Error& error, ExitStyle style) {
  switch (error.kind) {
    case ErrorKind::kApi:
      if (error.reason == "Invalid") {
        err << error.message << '\n';  // already kubectl's full "The K \"n\" is invalid: ..." text
      } else if (error.reason.empty()) {
        err << "Error from server: " << error.message << '\n';
      } else {
        err << "Error from server (" << error.reason << "): " << error.message << '\n';
      }
      break;
    case ErrorKind::kUnauthorized:
      err << "error: You must be logged in to the server (" << error.message << ")\n";
      break;
    case ErrorKind::kTransport:
    case ErrorKind::kConfig:
      err << error.message << '\n';
      break;
    default:
      err << "error: " << error.message << '\n';
      break;
  }
  for (const auto& line : error.detail_lines) err << line << '\n';
  if (!error.hint.empty()) err << error.hint << '\n';
  err.flush();
  return style == ExitStyle::kDiff ? kExitDiffError : kExitError;
}

}  // namespace tazuna::cli
