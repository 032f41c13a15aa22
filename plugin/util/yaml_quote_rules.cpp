#include "util/yaml_quote_rules.hpp"

#include <optional>

namespace tazuna::util {
namespace {

bool Digit(char c) { return c >= '0' && c <= '9'; }

// Go's time getnum(s, fixed=false): one or two digits; advances `s`.
std::optional<int> TakeNum(std::string_view& s) {
  if (s.empty() || !Digit(s[0])) return std::nullopt;
  const size_t n = s.size() > 1 && Digit(s[1]) ? 2 : 1;
  int v = 0;
  for (size_t i = 0; i < n; ++i) v = v * 10 + (s[i] - '0');
  s.remove_prefix(n);
  return v;
}

bool Expect(std::string_view& s, char c) {
  if (s.empty() || s[0] != c) return false;
  s.remove_prefix(1);
  return true;
}

int DaysIn(int month, int year) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// "15:4:5.999999999": hour, minute, second in range, then an optional fraction (time.Parse accepts
// one after the seconds; '.' or ',' and at least one digit).
bool TakeClock(std::string_view& s) {
  const auto h = TakeNum(s);
  if (!h || *h > 23 || !Expect(s, ':')) return false;
  const auto m = TakeNum(s);
  if (!m || *m > 59 || !Expect(s, ':')) return false;
  const auto sec = TakeNum(s);
  if (!sec || *sec > 59) return false;
  if (s.size() >= 2 && (s[0] == '.' || s[0] == ',') && Digit(s[1])) {
    s.remove_prefix(1);
    while (!s.empty() && Digit(s[0])) s.remove_prefix(1);
  }
  return true;
}

// "Z07:00": Z, or a sign, two-digit hours (<= 24), ':' and two-digit minutes (<= 60), as time.Parse.
bool TakeZone(std::string_view& s) {
  if (Expect(s, 'Z')) return true;
  if (s.size() < 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':') return false;
  if (!Digit(s[1]) || !Digit(s[2]) || !Digit(s[4]) || !Digit(s[5])) return false;
  const int hr = (s[1] - '0') * 10 + (s[2] - '0');
  const int mm = (s[4] - '0') * 10 + (s[5] - '0');
  s.remove_prefix(6);
  return hr <= 24 && mm <= 60;
}

bool Layout(std::string_view s, char separator) {
  int year = 0;
  for (int i = 0; i < 4; ++i) year = year * 10 + (s[static_cast<size_t>(i)] - '0');
  s.remove_prefix(5);  // "YYYY-", checked by the caller
  const auto month = TakeNum(s);
  if (!month || *month < 1 || *month > 12 || !Expect(s, '-')) return false;
  const auto day = TakeNum(s);
  if (!day || *day < 1 || *day > DaysIn(*month, year)) return false;
  if (separator == '\0') return s.empty();
  if (!Expect(s, separator) || !TakeClock(s)) return false;
  if (separator != ' ' && !TakeZone(s)) return false;
  return s.empty();
}

}  // namespace

bool IsGoYamlTimestamp(std::string_view s) {
  if (s.size() < 5 || !Digit(s[0]) || !Digit(s[1]) || !Digit(s[2]) || !Digit(s[3]) || s[4] != '-') return false;
  for (const char separator : {'T', 't', ' ', '\0'}) {
    if (Layout(s, separator)) return true;
  }
  return false;
}

bool IsGoYamlBase60Float(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  if (s.empty() || !Digit(s[0])) return false;
  while (!s.empty() && (Digit(s[0]) || s[0] == '_')) s.remove_prefix(1);
  int groups = 0;
  while (!s.empty() && s[0] == ':') {
    s.remove_prefix(1);
    if (s.size() >= 2 && s[0] >= '0' && s[0] <= '5' && Digit(s[1])) {
      s.remove_prefix(2);
    } else if (!s.empty() && Digit(s[0])) {
      s.remove_prefix(1);
    } else {
      return false;
    }
    ++groups;
  }
  if (groups == 0) return false;
  if (!s.empty() && s[0] == '.') {
    s.remove_prefix(1);
    while (!s.empty() && (Digit(s[0]) || s[0] == '_')) s.remove_prefix(1);
  }
  return s.empty();
}

}  // namespace tazuna::util
