#include "cli/fleet_output.hpp"

#include <algorithm>

#include "cli/report_error.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

using Status = ContextOutcome::Status;

size_t RowCount(const ContextOutcome& o, const FleetWords& words) {
  size_t rows = 0;
  for (const auto& t : o.tables) rows += t.rows.size();
  if (words.lines_are_rows) rows += o.lines.size();
  return rows + o.items.size();
}

std::string OutcomeLine(const ContextOutcome& o, const FleetWords& words) {
  if (o.status == Status::kSkipped) return o.context + ": skipped (an earlier context failed)";
  if (o.error) {
    const bool unreachable = o.error->kind == util::ErrorKind::kTransport;
    return o.context + ": " + (unreachable ? "unreachable: " + o.error->message : ErrorText(*o.error));
  }
  if (o.status == Status::kFailed) return util::StrCat(o.context, ": failed (exit ", o.code, ")");
  const size_t rows = RowCount(o, words);
  if (rows == 0) return o.context + ": no " + words.noun + "s";
  return util::StrCat(o.context, ": ", rows, " ", words.noun, rows == 1 ? "" : "s");
}

print::Table MergeTables(const std::vector<ContextOutcome>& outcomes, const FleetWords& words) {
  print::Table merged;
  merged.headers = {"CONTEXT"};
  for (const auto& o : outcomes) {
    if (o.tables.empty()) continue;
    merged.headers.insert(merged.headers.end(), o.tables.front().headers.begin(), o.tables.front().headers.end());
    break;
  }
  if (merged.headers.size() == 1 && words.lines_are_rows) merged.headers.push_back("");
  for (const auto& o : outcomes) {
    for (const auto& t : o.tables) {
      for (const auto& row : t.rows) {
        std::vector<std::string> cells = {o.context};
        cells.insert(cells.end(), row.begin(), row.end());
        merged.rows.push_back(std::move(cells));
      }
    }
    if (!words.lines_are_rows) continue;
    for (const auto& line : o.lines) merged.rows.push_back({o.context, line});
  }
  return merged;
}

nlohmann::json MergeLists(const std::vector<ContextOutcome>& outcomes) {
  nlohmann::json items = nlohmann::json::array();
  for (const auto& o : outcomes) {
    for (const auto& item : o.items) {
      nlohmann::json copy = item;
      if (copy.is_object()) copy["context"] = o.context;
      items.push_back(std::move(copy));
    }
  }
  return {{"apiVersion", "v1"}, {"kind", "List"}, {"items", std::move(items)}};
}

int FleetExitCode(const std::vector<ContextOutcome>& outcomes, FleetMode mode) {
  int code = kExitOk;
  bool ran = false;  // a context ran to its end
  bool refused = false;
  for (const auto& o : outcomes) {
    ran = ran || o.status == Status::kDone || (o.status == Status::kFailed && !o.error);  // ran to its end, exit 1
    int own = o.code;
    if (o.status == Status::kFailed && o.error) own = o.error->part_way ? kExitPartWay : kExitRefused;
    refused = refused || own >= kExitRefused;
    code = std::max(code, own);
  }
  if (mode == FleetMode::kRollout && ran && refused) return kExitPartWay;
  return code;
}

void PrefixLines(std::ostream& err, const std::string& context, const std::string& text) {
  for (const auto& line : util::Split(text, '\n')) {
    if (!line.empty()) err << context << ": " << line << '\n';
  }
}

}  // namespace tazuna::cli
