#include "cli/print/table.hpp"

#include <algorithm>

namespace tazuna::cli::print {

namespace {

void PrintRow(std::ostream& out, const std::vector<std::string>& cells, const std::vector<size_t>& widths) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) {
    line += cells[i];
    if (i + 1 < cells.size()) line += std::string(widths[i] - cells[i].size(), ' ');
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  out << line << '\n';
}

}  // namespace

void PrintTable(std::ostream& out, const Table& table, bool with_headers) {
  if (table.rows.empty()) return;
  if (auto* capture = dynamic_cast<TableCapture*>(&out); capture != nullptr) {
    capture->Record(table);
    return;
  }
  std::vector<size_t> widths(table.headers.size(), 0);
  for (size_t i = 0; i < table.headers.size(); ++i) widths[i] = with_headers ? table.headers[i].size() : 0;
  for (const auto& row : table.rows) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  for (auto& w : widths) w = std::max<size_t>(w + 3, 6);
  if (with_headers) PrintRow(out, table.headers, widths);
  for (const auto& row : table.rows) PrintRow(out, row, widths);
}

}  // namespace tazuna::cli::print
