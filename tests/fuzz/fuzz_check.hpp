#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "util/error.hpp"

namespace tazuna::fuzz {

/// Stops the run when a property does not hold; libFuzzer then saves the input as a crash.
inline void Check(bool holds, const char* property) {
  if (holds) return;
  std::fprintf(stderr, "fuzz property failed: %s\n", property);
  std::abort();
}

/// Every error a user can see is one non-empty line (cli::ReportError prints it after `error: `).
inline void CheckOneLine(const util::Error& error) {
  if (!error.message.empty() && error.message.find('\n') == std::string::npos) return;
  std::fprintf(stderr, "error message: [%s]\n", error.message.c_str());
  Check(false, "an error message is one non-empty line");
}

/// The input as text.
inline std::string_view Text(const unsigned char* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace tazuna::fuzz
