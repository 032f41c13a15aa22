#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tazuna::cli::print {

/// A table kubectl style: UPPERCASE headers as given, every column but the last padded to
/// max(widest cell + 3, 6), no trailing spaces, nothing at all when there are no rows.
struct Table {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};

/// Prints `table`; `with_headers` false drops the header line (--no-headers).
void PrintTable(std::ostream& out, const Table& table, bool with_headers = true);

}  // namespace tazuna::cli::print
