#include "state/apply/result.hpp"

namespace tazuna::state {

const char* VerbName(Verb verb) {
  switch (verb) {
    case Verb::kCreated: return "created";
    case Verb::kConfigured: return "configured";
    case Verb::kUnchanged: return "unchanged";
    case Verb::kDeleted: return "deleted";
    case Verb::kKept: return "kept";
    case Verb::kAdopted: return "adopted";
    case Verb::kConflict: return "conflict";
    case Verb::kSkipped: return "skipped";
    case Verb::kFailed: return "failed";
  }
  return "unknown";
}

const char* RepairName(Repair repair) {
  switch (repair) {
    case Repair::kNone: return "none";
    case Repair::kMissing: return "missing";
    case Repair::kFields: return "fields";
    case Repair::kAll: return "all";
  }
  return "unknown";
}

StateKey SyncResult::Parsed() const {
  auto parsed = ParseStateKey(key);
  return parsed ? *parsed : StateKey{};
}

const util::Error& SyncResult::Error() const {
  static const util::Error kNone;
  return error ? *error : kNone;
}

}  // namespace tazuna::state
