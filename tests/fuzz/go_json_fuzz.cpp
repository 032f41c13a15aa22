// The Go-compatible JSON writer (util::GoJsonMarshal): nlohmann reads its output back to the same
// value (every number as a float64, NaN and infinities as null), and writing that again is identical.
#include <cmath>

#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "util/go_json.hpp"

namespace tazuna::fuzz {
namespace {

using nlohmann::json;

// `a` as encoding/json sees it after Unmarshal into interface{} equals `b`.
bool SameAsGo(const json& a, const json& b) {
  if (a.is_number_float() && !std::isfinite(a.get<double>())) return b.is_null();
  if (a.is_number()) return b.is_number() && a.get<double>() == b.get<double>();
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (a.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto other = b.find(it.key());
      if (other == b.end() || !SameAsGo(*it, *other)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (!SameAsGo(a[i], b[i])) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace
}  // namespace tazuna::fuzz

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size) {
  using namespace tazuna;
  const nlohmann::json value = nlohmann::json::parse(data, data + size, nullptr, false);
  if (value.is_discarded()) return 0;
  const std::string once = util::GoJsonMarshal(value);
  const nlohmann::json back = nlohmann::json::parse(once, nullptr, false);
  fuzz::Check(!back.is_discarded(), "GoJsonMarshal writes valid JSON");
  fuzz::Check(fuzz::SameAsGo(value, back), "GoJsonMarshal keeps every value (numbers as float64)");
  // nlohmann reads `-0` as the integer 0 (Go: float64 -0), so the fixed point is checked from `back` on.
  const std::string twice = util::GoJsonMarshal(back);
  fuzz::Check(util::GoJsonMarshal(nlohmann::json::parse(twice)) == twice, "GoJsonMarshal output is a fixed point");
  fuzz::Check(once.find_first_of("<>&") == std::string::npos, "<, > and & are always escaped");
  return 0;
}
