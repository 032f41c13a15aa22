#pragma once

#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace tazuna::cli::print {

/// A table kubectl style: UPPERCASE headers as given, every column but the last padded to
/// max(widest cell + 3, 6), no trailing spaces, nothing at all when there are no rows.
struct Table {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};

/// A stream that records the tables printed to it as values instead of text (other text is kept as
/// text): how a fleet run collects each context's rows with the command's own columns.
class TableCapture : public std::ostringstream {
 public:
  /// The tables printed so far, headers included even under --no-headers.
  const std::vector<Table>& tables() const { return tables_; }
  void Record(const Table& table) { tables_.push_back(table); }

 private:
  std::vector<Table> tables_;
};

/// Prints `table`; `with_headers` false drops the header line (--no-headers). On a TableCapture the
/// table is recorded instead.
void PrintTable(std::ostream& out, const Table& table, bool with_headers = true);

}  // namespace tazuna::cli::print
