// sprig's string functions, with the strings and goutils functions they call (strings.hpp).
#include "manifest/sprig/function_map.hpp"

#include <algorithm>

#include "manifest/sprig/strings.hpp"
#include "util/go_fmt.hpp"
#include "util/go_strconv.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest::sprig {

void AddStrings(gotemplate::FunctionMap& m) {
  m["hello"] = {Sig({}), [](Args&) -> Result<GoValue> { return Str("Hello!"); }};
  m["trim"] = {Sig({kStr}), StringFn([](const std::string& s) { return TrimSpace(s); })};
  m["upper"] = {Sig({kStr}), StringFn([](const std::string& s) { return MapRunes(s, AsciiUpper); })};
  m["lower"] = {Sig({kStr}), StringFn([](const std::string& s) { return MapRunes(s, AsciiLower); })};
  m["title"] = {Sig({kStr}), StringFn(Title)};
  m["untitle"] = {Sig({kStr}), StringFn(Untitle)};
  m["nospace"] = {Sig({kStr}), StringFn(DeleteWhiteSpace)};
  m["abbrev"] = {Sig({kAny, kStr}), [](Args& a) -> Result<GoValue> {
                   auto width = IntArg(a[0]);
                   if (!width) return width.error();
                   if (*width < 4) return a[1];
                   return Str(AbbreviateFull(a[1].s, 0, *width).value_or(""));
                 }};
  m["abbrevboth"] = {Sig({kAny, kAny, kStr}), [](Args& a) -> Result<GoValue> {
                       auto left = IntArg(a[0]);
                       if (!left) return left.error();
                       auto right = IntArg(a[1]);
                       if (!right) return right.error();
                       if (*right < 4 || (*left > 0 && *right < 7)) return a[2];
                       return Str(AbbreviateFull(a[2].s, *left, *right).value_or(""));
                     }};
  m["trunc"] = {Sig({kAny, kStr}), [](Args& a) -> Result<GoValue> {
                  auto c = IntArg(a[0]);
                  if (!c) return c.error();
                  const auto len = static_cast<int64_t>(a[1].s.size());
                  if (*c < 0 && len + *c > 0) return Str(a[1].s.substr(static_cast<size_t>(len + *c)));
                  if (*c >= 0 && len > *c) return Str(a[1].s.substr(0, static_cast<size_t>(*c)));
                  return a[1];
                }};
  m["substr"] = {Sig({kAny, kAny, kStr}), [](Args& a) -> Result<GoValue> {
                   auto start = IntArg(a[0]);
                   if (!start) return start.error();
                   auto end = IntArg(a[1]);
                   if (!end) return end.error();
                   const std::string& s = a[2].s;
                   const auto len = static_cast<int64_t>(s.size());
                   const auto bounds = [&](int64_t lo, int64_t hi) -> Result<GoValue> {
                     if (lo < 0 || hi > len || lo > hi) {
                       return Fail("runtime error: slice bounds out of range [" + std::to_string(lo) + ":" + std::to_string(hi) + "]");
                     }
                     return Str(s.substr(static_cast<size_t>(lo), static_cast<size_t>(hi - lo)));
                   };
                   if (*start < 0) return bounds(0, *end);
                   if (*end < 0 || *end > len) return bounds(*start, len);
                   return bounds(*start, *end);
                 }};
  m["repeat"] = {Sig({kAny, kStr}), [](Args& a) -> Result<GoValue> {
                   auto count = IntArg(a[0]);
                   if (!count) return count.error();
                   auto out = Repeat(a[1].s, *count);
                   if (!out) return out.error();
                   return Str(*out);
                 }};
  const Body trim_all = [](Args& a) -> Result<GoValue> { return Str(TrimCutset(a[1].s, a[0].s)); };
  m["trimAll"] = {Sig({kStr, kStr}), trim_all};
  m["trimall"] = {Sig({kStr, kStr}), trim_all};
  m["trimSuffix"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> {
                       return util::EndsWith(a[1].s, a[0].s) ? Str(a[1].s.substr(0, a[1].s.size() - a[0].s.size())) : a[1];
                     }};
  m["trimPrefix"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> {
                       return util::StartsWith(a[1].s, a[0].s) ? Str(a[1].s.substr(a[0].s.size())) : a[1];
                     }};
  m["contains"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> {
                     return GoValue::Bool(a[1].s.find(a[0].s) != std::string::npos);
                   }};
  m["hasPrefix"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(util::StartsWith(a[1].s, a[0].s)); }};
  m["hasSuffix"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(util::EndsWith(a[1].s, a[0].s)); }};
  const auto quoted = [](char q) {
    return [q](Args& a) -> Result<GoValue> {
      std::vector<std::string> out;
      for (const GoValue& v : a) {
        if (v.kind == GoKind::kNil) continue;
        out.push_back(q == '"' ? util::GoQuote(StrVal(v), util::QuoteMode::kUnicode) : "'" + StrVal(v) + "'");
      }
      return Str(util::Join(out, " "));
    };
  };
  m["quote"] = {Sig({}, kAny), quoted('"')};
  m["squote"] = {Sig({}, kAny), quoted('\'')};
  m["cat"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                Args kept;
                for (const GoValue& v : a) {
                  if (v.kind != GoKind::kNil) kept.push_back(v);
                }
                std::string format;
                for (size_t i = 0; i < kept.size(); ++i) format += i == 0 ? "%v" : " %v";
                return Str(util::GoSprintf(format, kept));
              }};
  m["indent"] = {Sig({kAny, kStr}), [](Args& a) -> Result<GoValue> {
                   auto spaces = IntArg(a[0]);
                   if (!spaces) return spaces.error();
                   auto out = Indent(*spaces, a[1].s);
                   if (!out) return out.error();
                   return Str(*out);
                 }};
  m["nindent"] = {Sig({kAny, kStr}), [](Args& a) -> Result<GoValue> {
                    auto spaces = IntArg(a[0]);
                    if (!spaces) return spaces.error();
                    auto out = Indent(*spaces, a[1].s);
                    if (!out) return out.error();
                    return Str("\n" + *out);
                  }};
  m["replace"] = {Sig({kStr, kStr, kStr}), [](Args& a) -> Result<GoValue> { return Str(ReplaceAll(a[2].s, a[0].s, a[1].s)); }};
  m["plural"] = {Sig({kStr, kStr, kAny}), [](Args& a) -> Result<GoValue> {
                   auto count = IntArg(a[2]);
                   if (!count) return count.error();
                   return *count == 1 ? a[0] : a[1];
                 }};
  m["toString"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return Str(StrVal(a[0])); }};
  m["toStrings"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return StringSlice(StrSlice(a[0])); }};
  m["join"] = {Sig({kStr, kAny}), [](Args& a) -> Result<GoValue> { return Str(util::Join(StrSlice(a[1]), a[0].s)); }};
  m["sortAlpha"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                      if (a[0].kind != GoKind::kSlice) return StringSlice({StrVal(a[0])});
                      std::vector<std::string> items = StrSlice(a[0]);
                      std::sort(items.begin(), items.end());
                      return StringSlice(items);
                    }};
  m["split"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> { return StringMap(GoSplit(a[1].s, a[0].s, -1)); }};
  m["splitList"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> { return StringSlice(GoSplit(a[1].s, a[0].s, -1)); }};
  m["splitn"] = {Sig({kStr, kAny, kStr}), [](Args& a) -> Result<GoValue> {
                   auto n = IntArg(a[1]);
                   if (!n) return n.error();
                   return StringMap(GoSplit(a[2].s, a[0].s, *n));
                 }};
  m["fail"] = {Sig({kStr}), [](Args& a) -> Result<GoValue> { return Fail(a[0].s); }};
}

}  // namespace tazuna::manifest::sprig
