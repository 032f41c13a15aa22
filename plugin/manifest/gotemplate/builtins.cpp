// Go's builtin template functions (text/template/funcs.go) over the twin's values.
#include <algorithm>

#include "manifest/gotemplate/functions.hpp"
#include "util/go_fmt.hpp"
#include "util/go_unicode.hpp"

namespace tazuna::manifest::gotemplate {
namespace {

using util::GoKind;
using util::Result;

util::Error Fail(std::string message) { return util::MakeError(util::ErrorKind::kInput, std::move(message)); }

// indirectInterface: a nil interface is no value at all.
GoValue Indirect(const GoValue& v) { return v.kind == GoKind::kNil ? GoValue{} : v; }

// Go's basicKind classes, in its order.
enum class Basic { kInvalid, kBool, kComplex, kInt, kFloat, kString, kUint };
Basic BasicKind(const GoValue& v) {
  switch (v.kind) {
    case GoKind::kBool: return Basic::kBool;
    case GoKind::kInt: return Basic::kInt;
    case GoKind::kUint8: return Basic::kUint;
    case GoKind::kFloat64: return Basic::kFloat;
    case GoKind::kComplex128: return Basic::kComplex;
    case GoKind::kString: return Basic::kString;
    default: return Basic::kInvalid;
  }
}

constexpr char kBadComparison[] = "incompatible types for comparison";
constexpr char kBadComparisonType[] = "invalid type for comparison";

bool SameBasic(const GoValue& a, const GoValue& b, Basic k) {
  switch (k) {
    case Basic::kBool: return a.b == b.b;
    case Basic::kComplex: return a.re == b.re && a.im == b.im;
    case Basic::kFloat: return a.re == b.re;
    case Basic::kInt: return a.i == b.i;
    case Basic::kString: return a.s == b.s;
    case Basic::kUint: return a.u == b.u;
    case Basic::kInvalid: break;
  }
  return false;
}

// The default case of Go's eq: non-basic values compared with ==.
Result<bool> EqualOther(const GoValue& a, const GoValue& b) {
  const bool a_nil = a.kind == GoKind::kInvalid, b_nil = b.kind == GoKind::kInvalid;
  if (a.kind != b.kind && !a_nil && !b_nil) {
    return Fail(util::GoSprintf("non-comparable types %v: %v, %v: %v",
                                {a, GoValue::String(a.TypeName()), GoValue::String(b.TypeName()), b}));
  }
  if (a_nil || b_nil) return a_nil == b_nil;
  if (a.kind != GoKind::kStruct) return Fail("non-comparable type " + util::GoSprint({b}) + ": " + b.TypeName());
  return a.st == b.st || (a.st->type_name == b.st->type_name && util::GoSprintf("%#v", {a}) == util::GoSprintf("%#v", {b}));
}

Result<bool> Eq(const GoValue& arg1_in, const std::vector<GoValue>& rest) {
  const GoValue arg1 = Indirect(arg1_in);
  if (rest.empty()) return Fail("missing argument for comparison");
  const Basic k1 = BasicKind(arg1);
  for (const GoValue& arg_in : rest) {
    const GoValue arg = Indirect(arg_in);
    const Basic k2 = BasicKind(arg);
    bool truth = false;
    if (k1 != k2) {
      if (k1 == Basic::kInt && k2 == Basic::kUint) {
        truth = arg1.i >= 0 && static_cast<uint64_t>(arg1.i) == arg.u;
      } else if (k1 == Basic::kUint && k2 == Basic::kInt) {
        truth = arg.i >= 0 && arg1.u == static_cast<uint64_t>(arg.i);
      } else if (arg1.kind != GoKind::kInvalid && arg.kind != GoKind::kInvalid) {
        return Fail(kBadComparison);
      }
    } else if (k1 != Basic::kInvalid) {
      truth = SameBasic(arg1, arg, k1);
    } else {
      auto equal = EqualOther(arg1, arg);
      if (!equal) return equal.error();
      truth = *equal;
    }
    if (truth) return true;
  }
  return false;
}

Result<bool> Lt(const GoValue& a_in, const GoValue& b_in) {
  const GoValue a = Indirect(a_in), b = Indirect(b_in);
  const Basic k1 = BasicKind(a), k2 = BasicKind(b);
  if (k1 == Basic::kInvalid || k2 == Basic::kInvalid) return Fail(kBadComparisonType);
  if (k1 != k2) {
    if (k1 == Basic::kInt && k2 == Basic::kUint) return a.i < 0 || static_cast<uint64_t>(a.i) < b.u;
    if (k1 == Basic::kUint && k2 == Basic::kInt) return b.i >= 0 && a.u < static_cast<uint64_t>(b.i);
    return Fail(kBadComparison);
  }
  switch (k1) {
    case Basic::kFloat: return a.re < b.re;
    case Basic::kInt: return a.i < b.i;
    case Basic::kString: return a.s < b.s;
    case Basic::kUint: return a.u < b.u;
    default: return Fail(kBadComparisonType);
  }
}

Result<bool> Le(const GoValue& a, const GoValue& b) {
  auto lt = Lt(a, b);
  if (!lt || *lt) return lt;
  return Eq(a, {b});
}

// indexArg: an integer index in [0, cap].
Result<int64_t> IndexArg(const GoValue& index, size_t cap) {
  int64_t x = 0;
  if (index.kind == GoKind::kInt) {
    x = index.i;
  } else if (index.kind == GoKind::kUint8) {
    x = static_cast<int64_t>(index.u);
  } else if (index.kind == GoKind::kInvalid) {
    return Fail("cannot index slice/array with nil");
  } else {
    return Fail("cannot index slice/array with type " + (index.kind == GoKind::kNil ? std::string("interface {}") : index.TypeName()));
  }
  if (x < 0 || static_cast<uint64_t>(x) > cap) return Fail("index out of range: " + std::to_string(x));
  return x;
}

size_t LengthOf(const GoValue& v) {
  return v.kind == GoKind::kString ? v.s.size() : v.kind == GoKind::kMap ? v.map->size() : v.slice->size();
}

Result<GoValue> IndexOne(const GoValue& item, const GoValue& index_in) {
  const GoValue index = Indirect(index_in);
  if (item.kind == GoKind::kNil) return Fail("index of nil pointer");
  if (item.kind == GoKind::kString || item.kind == GoKind::kSlice) {
    auto x = IndexArg(index, LengthOf(item));
    if (!x) return x.error();
    if (static_cast<size_t>(*x) == LengthOf(item)) {
      return Fail(std::string("reflect: ") + (item.kind == GoKind::kString ? "string" : "slice") + " index out of range");
    }
    if (item.kind == GoKind::kString) return GoValue::Uint8(static_cast<uint8_t>(item.s[static_cast<size_t>(*x)]));
    return (*item.slice)[static_cast<size_t>(*x)];
  }
  if (item.kind == GoKind::kMap) {
    if (index.kind == GoKind::kInvalid) return Fail("value is nil; should be of type string");
    if (index.kind != GoKind::kString) return Fail("value has type " + index.TypeName() + "; should be string");
    const auto it = item.map->find(index.s);
    return it == item.map->end() ? GoValue::Nil() : it->second;
  }
  return Fail("can't index item of type " + item.TypeName());
}

Result<GoValue> Index(std::vector<GoValue>& args) {
  GoValue item = Indirect(args[0]);
  if (item.kind == GoKind::kInvalid) return Fail("index of untyped nil");
  for (size_t i = 1; i < args.size(); ++i) {
    auto next = IndexOne(item, args[i]);
    if (!next) return next.error();
    item = std::move(*next);
  }
  return item;
}

Result<GoValue> Slice(std::vector<GoValue>& args) {
  const GoValue item = Indirect(args[0]);
  if (item.kind == GoKind::kInvalid) return Fail("slice of untyped nil");
  const size_t n = args.size() - 1;
  if (n > 3) return Fail("too many slice indexes: " + std::to_string(n));
  if (item.kind == GoKind::kString && n == 3) return Fail("cannot 3-index slice a string");
  if (item.kind != GoKind::kString && item.kind != GoKind::kSlice) return Fail("can't slice item of type " + item.TypeName());
  const size_t len = LengthOf(item);
  int64_t idx[3] = {0, static_cast<int64_t>(len), static_cast<int64_t>(len)};
  for (size_t i = 0; i < n; ++i) {
    auto x = IndexArg(args[i + 1], len);
    if (!x) return x.error();
    idx[i] = *x;
  }
  if (idx[0] > idx[1]) return Fail("invalid slice index: " + std::to_string(idx[0]) + " > " + std::to_string(idx[1]));
  if (n == 3 && idx[1] > idx[2]) return Fail("invalid slice index: " + std::to_string(idx[1]) + " > " + std::to_string(idx[2]));
  const auto from = static_cast<size_t>(idx[0]), to = static_cast<size_t>(idx[1]);
  if (item.kind == GoKind::kString) return GoValue::String(item.s.substr(from, to - from));
  return GoValue::Slice(util::GoSlice(item.slice->begin() + static_cast<long>(from), item.slice->begin() + static_cast<long>(to)));
}

Result<GoValue> Length(std::vector<GoValue>& args) {
  const GoValue& item = args[0];
  if (item.kind == GoKind::kNil) return Fail("len of nil pointer");
  if (item.kind == GoKind::kString || item.kind == GoKind::kMap || item.kind == GoKind::kSlice) {
    return GoValue::Int(static_cast<int64_t>(LengthOf(item)));
  }
  return Fail("len of type " + item.TypeName());
}

std::string HtmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '\0': out += "\xEF\xBF\xBD"; break;
      case '"': out += "&#34;"; break;
      case '\'': out += "&#39;"; break;
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string JsEscape(const std::string& s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const util::DecodedRune d = util::DecodeRune(std::string_view(s).substr(i));
      if (util::IsGoPrint(d.rune)) {
        out.append(s, i, d.width);
      } else {
        out += util::GoSprintf("\\u%04X", {GoValue::Int(d.rune)});
      }
      i += d.width;
      continue;
    }
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\'': out += "\\'"; break;
      case '"': out += "\\\""; break;
      case '<': out += "\\u003C"; break;
      case '>': out += "\\u003E"; break;
      case '&': out += "\\u0026"; break;
      case '=': out += "\\u003D"; break;
      default:
        if (c < ' ') {
          out += {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  return out;
}

std::string UrlQueryEscape(const std::string& s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out += {'%', kHex[c >> 4], kHex[c & 0xF]};
    }
  }
  return out;
}

using Body = std::function<Result<GoValue>(std::vector<GoValue>&)>;

Body Compare(std::function<Result<bool>(const GoValue&, const GoValue&)> op) {
  return [op](std::vector<GoValue>& a) -> Result<GoValue> {
    auto r = op(a[0], a[1]);
    if (!r) return r.error();
    return GoValue::Bool(*r);
  };
}

FunctionMap MakeBuiltins() {
  const Signature value1{{ArgType::kValue}, std::nullopt}, value2{{ArgType::kValue, ArgType::kValue}, std::nullopt};
  const Signature value_more{{ArgType::kValue}, ArgType::kValue}, any_more{{}, ArgType::kAny};
  const auto text = [](std::string (*f)(const std::string&)) {
    return [f](std::vector<GoValue>& a) -> Result<GoValue> { return GoValue::String(f(EvalArgs(a))); };
  };
  FunctionMap m;
  m["and"] = {value_more, nullptr};  // short-circuit: evaluated by the executor
  m["or"] = {value_more, nullptr};
  m["not"] = {value1, [](std::vector<GoValue>& a) -> Result<GoValue> {
                bool ok = true;
                return GoValue::Bool(!IsTrue(Indirect(a[0]), &ok));
              }};
  m["call"] = {value_more, [](std::vector<GoValue>& a) -> Result<GoValue> {
                 const GoValue fn = Indirect(a[0]);
                 if (fn.kind == GoKind::kInvalid) return Fail("call of nil");
                 return Fail("non-function of type " + fn.TypeName());
               }};
  m["html"] = {any_more, text(HtmlEscape)};
  m["js"] = {any_more, text(JsEscape)};
  m["urlquery"] = {any_more, text(UrlQueryEscape)};
  m["index"] = {value_more, Index};
  m["slice"] = {value_more, Slice};
  m["len"] = {value1, Length};
  m["print"] = {any_more, [](std::vector<GoValue>& a) -> Result<GoValue> { return GoValue::String(util::GoSprint(a)); }};
  m["println"] = {any_more, [](std::vector<GoValue>& a) -> Result<GoValue> { return GoValue::String(util::GoSprintln(a)); }};
  m["printf"] = {{{ArgType::kString}, ArgType::kAny}, [](std::vector<GoValue>& a) -> Result<GoValue> {
                   return GoValue::String(util::GoSprintf(a[0].s, std::vector<GoValue>(a.begin() + 1, a.end())));
                 }};
  m["eq"] = {value_more, [](std::vector<GoValue>& a) -> Result<GoValue> {
               auto r = Eq(a[0], std::vector<GoValue>(a.begin() + 1, a.end()));
               if (!r) return r.error();
               return GoValue::Bool(*r);
             }};
  m["ne"] = {value2, Compare([](const GoValue& a, const GoValue& b) -> Result<bool> {
               auto r = Eq(a, {b});
               if (!r) return r;
               return !*r;
             })};
  m["lt"] = {value2, Compare(Lt)};
  m["le"] = {value2, Compare(Le)};
  m["gt"] = {value2, Compare([](const GoValue& a, const GoValue& b) -> Result<bool> {
               auto r = Le(a, b);
               if (!r) return r;
               return !*r;
             })};
  m["ge"] = {value2, Compare([](const GoValue& a, const GoValue& b) -> Result<bool> {
               auto r = Lt(a, b);
               if (!r) return r;
               return !*r;
             })};
  return m;
}

}  // namespace

const FunctionMap& Builtins() {
  static const FunctionMap kBuiltins = MakeBuiltins();
  return kBuiltins;
}

bool IsTrue(const GoValue& v, bool* ok) {
  *ok = true;
  switch (v.kind) {
    case GoKind::kInvalid:
    case GoKind::kNil: return false;
    case GoKind::kString:
    case GoKind::kMap:
    case GoKind::kSlice: return LengthOf(v) > 0;
    case GoKind::kBool: return v.b;
    case GoKind::kComplex128: return v.re != 0 || v.im != 0;
    case GoKind::kInt: return v.i != 0;
    case GoKind::kFloat64: return v.re != 0;
    case GoKind::kUint8: return v.u != 0;
    case GoKind::kStruct: return true;
  }
  *ok = false;
  return false;
}

std::string EvalArgs(const std::vector<GoValue>& args) {
  if (args.size() == 1 && args[0].kind == GoKind::kString) return args[0].s;
  std::vector<GoValue> printable = args;
  for (GoValue& a : printable) {
    if (a.kind == GoKind::kNil || a.kind == GoKind::kInvalid) a = GoValue::String("<no value>");
  }
  return util::GoSprint(printable);
}

}  // namespace tazuna::manifest::gotemplate
