// sprig's number functions: arguments through spf13/cast, as sprig converts them.
#include "manifest/sprig/function_map.hpp"

#include <cmath>
#include <limits>

#include "util/go_fmt.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest::sprig {
namespace {

GoSlice UntilStep(int64_t start, int64_t stop, int64_t step) {
  GoSlice out;
  if (stop < start) {
    if (step >= 0) return out;
    for (int64_t i = start; i > stop; i += step) out.push_back(GoValue::Int(i));
    return out;
  }
  if (step <= 0) return out;
  for (int64_t i = start; i < stop; i += step) out.push_back(GoValue::Int(i));
  return out;
}

std::string JoinInts(const GoSlice& ints) {
  std::vector<std::string> parts;
  for (const GoValue& v : ints) parts.push_back(std::to_string(v.i));
  return util::Join(parts, " ");
}

}  // namespace

void AddNumbers(gotemplate::FunctionMap& m) {
  m["atoi"] = {Sig({kStr}), [](Args& a) -> Result<GoValue> {
                 const std::string& s = a[0].s;
                 size_t i = s.empty() || (s[0] != '+' && s[0] != '-') ? 0 : 1;
                 if (i == s.size()) return GoValue::Int(0);
                 const bool negative = i == 1 && s[0] == '-';
                 uint64_t n = 0;
                 bool overflow = false;
                 for (; i < s.size(); ++i) {
                   if (s[i] < '0' || s[i] > '9') return GoValue::Int(0);
                   if (n > (uint64_t{1} << 63) / 10) overflow = true;
                   n = n * 10 + static_cast<uint64_t>(s[i] - '0');
                   if (n > (uint64_t{1} << 63)) overflow = true;
                 }
                 if (overflow || (!negative && n == (uint64_t{1} << 63))) {
                   return GoValue::Int(negative ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max());
                 }
                 return GoValue::Int(negative ? static_cast<int64_t>(0 - n) : static_cast<int64_t>(n));
               }};
  m["int64"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Int(ToInt64(a[0])); }};
  m["int"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Int(ToInt64(a[0])); }};
  m["float64"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Float(ToFloat64(a[0])); }};
  m["add1"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Int(static_cast<int64_t>(static_cast<uint64_t>(ToInt64(a[0])) + 1)); }};
  m["add"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                uint64_t sum = 0;
                for (const GoValue& v : a) sum += static_cast<uint64_t>(ToInt64(v));
                return GoValue::Int(static_cast<int64_t>(sum));
              }};
  m["sub"] = {Sig({kAny, kAny}), [](Args& a) -> Result<GoValue> {
                return GoValue::Int(static_cast<int64_t>(static_cast<uint64_t>(ToInt64(a[0])) - static_cast<uint64_t>(ToInt64(a[1]))));
              }};
  m["mul"] = {Sig({kAny}, kAny), [](Args& a) -> Result<GoValue> {
                uint64_t product = static_cast<uint64_t>(ToInt64(a[0]));
                for (size_t i = 1; i < a.size(); ++i) product *= static_cast<uint64_t>(ToInt64(a[i]));
                return GoValue::Int(static_cast<int64_t>(product));
              }};
  const auto divide = [](bool modulo) {
    return [modulo](Args& a) -> Result<GoValue> {
      const int64_t x = ToInt64(a[0]), y = ToInt64(a[1]);
      if (y == 0) return Fail("runtime error: integer divide by zero");
      if (y == -1) return GoValue::Int(modulo ? 0 : static_cast<int64_t>(0 - static_cast<uint64_t>(x)));
      return GoValue::Int(modulo ? x % y : x / y);
    };
  };
  m["div"] = {Sig({kAny, kAny}), divide(false)};
  m["mod"] = {Sig({kAny, kAny}), divide(true)};
  const auto extreme = [](bool biggest) {
    return [biggest](Args& a) -> Result<GoValue> {
      int64_t best = ToInt64(a[0]);
      for (size_t i = 1; i < a.size(); ++i) {
        const int64_t v = ToInt64(a[i]);
        if (biggest ? v > best : v < best) best = v;
      }
      return GoValue::Int(best);
    };
  };
  m["max"] = {Sig({kAny}, kAny), extreme(true)};
  m["biggest"] = {Sig({kAny}, kAny), extreme(true)};
  m["min"] = {Sig({kAny}, kAny), extreme(false)};
  m["floor"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Float(std::floor(ToFloat64(a[0]))); }};
  m["ceil"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Float(std::ceil(ToFloat64(a[0]))); }};
  m["round"] = {Sig({kAny, kAny}, kAny), [](Args& a) -> Result<GoValue> {
                  auto places = IntArg(a[1]);
                  if (!places) return places.error();
                  double round_on = .5;
                  if (a.size() > 2) {
                    if (a[2].kind != GoKind::kFloat64) return Fail("wrong type for value; expected float64; got " + a[2].TypeName());
                    round_on = a[2].re;
                  }
                  const double pow = std::pow(10, static_cast<double>(*places));
                  const double digit = pow * ToFloat64(a[0]);
                  double whole = 0;
                  const double frac = std::modf(digit, &whole);
                  return GoValue::Float((frac >= round_on ? std::ceil(digit) : std::floor(digit)) / pow);
                }};
  m["toDecimal"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                      // strconv.ParseInt(fmt.Sprint(v), 8, 64), 0 on error.
                      const std::string text = util::GoSprint({a[0]});
                      size_t i = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
                      if (i == text.size()) return GoValue::Int(0);
                      uint64_t n = 0;
                      for (; i < text.size(); ++i) {
                        if (text[i] < '0' || text[i] > '7' || n > (uint64_t{1} << 61)) return GoValue::Int(0);
                        n = n * 8 + static_cast<uint64_t>(text[i] - '0');
                      }
                      const bool negative = text[0] == '-';
                      if (n > (uint64_t{1} << 63) - (negative ? 0 : 1)) return GoValue::Int(0);
                      return GoValue::Int(negative ? static_cast<int64_t>(0 - n) : static_cast<int64_t>(n));
                    }};
  m["until"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                  auto count = IntArg(a[0]);
                  if (!count) return count.error();
                  return GoValue::Slice(UntilStep(0, *count, *count < 0 ? -1 : 1));
                }};
  m["untilStep"] = {Sig({kAny, kAny, kAny}), [](Args& a) -> Result<GoValue> {
                      int64_t p[3];
                      for (int i = 0; i < 3; ++i) {
                        auto v = IntArg(a[static_cast<size_t>(i)]);
                        if (!v) return v.error();
                        p[i] = *v;
                      }
                      return GoValue::Slice(UntilStep(p[0], p[1], p[2]));
                    }};
  m["seq"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                std::vector<int64_t> p;
                for (const GoValue& v : a) {
                  auto i = IntArg(v);
                  if (!i) return i.error();
                  p.push_back(*i);
                }
                if (p.size() == 1) {
                  const int64_t inc = p[0] < 1 ? -1 : 1;
                  return Str(JoinInts(UntilStep(1, p[0] + inc, inc)));
                }
                if (p.size() == 2) {
                  const int64_t inc = p[1] < p[0] ? -1 : 1;
                  return Str(JoinInts(UntilStep(p[0], p[1] + inc, inc)));
                }
                if (p.size() == 3) {
                  const int64_t start = p[0], step = p[1], end = p[2];
                  if (end < start) {
                    if (step >= 0) return Str("");
                    return Str(JoinInts(UntilStep(start, end - 1, step)));
                  }
                  if (step <= 0) return Str("");
                  return Str(JoinInts(UntilStep(start, end + 1, step)));
                }
                return Str("");
              }};
}

}  // namespace tazuna::manifest::sprig
