#pragma once

#include <ostream>
#include <string>

#include "cli/command.hpp"
#include "util/error.hpp"

namespace tazuna::cli {

/// The first line ReportError prints for `error` (no trailing newline).
std::string ErrorText(const util::Error& error);

/// The only place an Error becomes user text: `error: ...`, kubectl's `Error from server (Reason): ...`,
/// `error: You must be logged in to the server (...)`, transport and configuration messages verbatim,
/// detail lines and hint. Returns the exit code: kExitPartWay for an error after the first write, else kExitRefused.
int ReportError(std::ostream& err, const util::Error& error);

}  // namespace tazuna::cli
