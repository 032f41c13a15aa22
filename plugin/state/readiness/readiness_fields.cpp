#include "state/readiness/readiness_fields.hpp"

#include <algorithm>

#include "util/clock.hpp"
#include "util/strings.hpp"

namespace tazuna::state::readiness {

using nlohmann::json;
using util::StrCat;

const json& Field(const json& object, const char* a, const char* b) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(a);
  if (it == object.end()) return kNull;
  if (b == nullptr) return *it;
  return Field(*it, b);
}

int64_t Int(const json& v, int64_t fallback) { return v.is_number_integer() ? v.get<int64_t>() : fallback; }
std::string Str(const json& v) { return v.is_string() ? v.get<std::string>() : std::string(); }

std::optional<int64_t> Generation(const json& object) {
  const json& g = Field(object, "metadata", "generation");
  return g.is_number_integer() ? std::optional<int64_t>(g.get<int64_t>()) : std::nullopt;
}

const json& Condition(const json& object, std::string_view type) {
  static const json kNull;
  const json& conditions = Field(object, "status", "conditions");
  if (!conditions.is_array()) return kNull;
  for (const auto& c : conditions) {
    if (c.is_object() && Str(Field(c, "type")) == type) return c;
  }
  return kNull;
}

bool ConditionIs(const json& object, std::string_view type, std::string_view status) {
  return Str(Field(Condition(object, type), "status")) == status;
}

bool Stale(const json& object, const json& condition) {
  const json& observed = Field(condition, "observedGeneration");
  const auto generation = Generation(object);
  return observed.is_number_integer() && generation && observed.get<int64_t>() < *generation;
}

std::string StaleText(const json& object, const json& condition) {
  return StrCat(DescribeCondition(condition), " is for generation ", Int(Field(condition, "observedGeneration")),
                ", not ", Generation(object).value_or(0));
}

std::string DescribeCondition(const json& c) {
  std::string out = StrCat(Str(Field(c, "type")), "=", Str(Field(c, "status")));
  if (const std::string reason = Str(Field(c, "reason")); !reason.empty()) out += " " + reason;
  if (const std::string message = Str(Field(c, "message")); !message.empty()) out += ": " + message;
  return out;
}

std::string LackingCondition(const json& object) {
  const json& conditions = Field(object, "status", "conditions");
  if (!conditions.is_array()) return "";
  for (const auto& c : conditions) {
    if (c.is_object() && Str(Field(c, "status")) != "True") return DescribeCondition(c);
  }
  return "";
}

Readiness Short(const json& object, std::string counts) {
  if (const std::string lacking = LackingCondition(object); !lacking.empty()) counts += " (" + lacking + ")";
  return InProgress(std::move(counts));
}

bool Unobserved(const json& object, bool required) {
  const json& observed = Field(object, "status", "observedGeneration");
  if (!observed.is_number_integer() && !required) return false;
  return Int(observed) < Generation(object).value_or(0);
}

Readiness NotObserved(const json& object) {
  const json& observed = Field(object, "status", "observedGeneration");
  std::string message = StrCat("generation ", Generation(object).value_or(0), " not yet observed");
  if (observed.is_number_integer()) message += StrCat(" (status is for ", observed.get<int64_t>(), ")");
  return InProgress(std::move(message));
}

namespace {

using TimePoint = std::chrono::system_clock::time_point;

std::optional<TimePoint> Parse(const json& v) {
  TimePoint t;
  if (!v.is_string() || !util::ParseRfc3339(v.get<std::string>(), &t)) return std::nullopt;
  return t;
}

// The newest managedFields time of entries for `subresource` ("" for the object itself).
std::optional<TimePoint> NewestWrite(const json& object, std::string_view subresource) {
  const json& entries = Field(object, "metadata", "managedFields");
  std::optional<TimePoint> newest;
  for (const auto& e : entries.is_array() ? entries : json::array()) {
    if (Str(Field(e, "subresource")) != subresource) continue;
    if (const auto t = Parse(Field(e, "time")); t && (!newest || *t > *newest)) newest = t;
  }
  return newest;
}

}  // namespace

std::optional<TimePoint> StatusWrittenAt(const json& object) { return NewestWrite(object, "status"); }

std::optional<TimePoint> SpecWrittenAt(const json& object) {
  std::optional<TimePoint> newest = NewestWrite(object, "");
  const auto created = Parse(Field(object, "metadata", "creationTimestamp"));
  if (created && (!newest || *created > *newest)) newest = created;
  return newest;
}

bool GracePassed(const json& object, const JudgeContext& context) {
  if (!context.grace) return false;
  auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(context.seen_for);
  // The server's timestamps are whole seconds: the write may have come up to a second later.
  if (const auto written = SpecWrittenAt(object); written && context.now != TimePoint{}) {
    const auto since = context.now - (*written + std::chrono::seconds(1));
    elapsed = std::max(elapsed, std::chrono::duration_cast<std::chrono::seconds>(since));
  }
  return elapsed >= *context.grace;
}

std::string SecondsText(std::chrono::seconds s) { return StrCat(s.count(), "s"); }

}  // namespace tazuna::state::readiness
