#include "manifest/sprig/values.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "manifest/gotemplate/functions.hpp"
#include "util/go_fmt.hpp"
#include "util/go_strconv.hpp"

namespace tazuna::manifest::sprig {
namespace {

int64_t FloatToInt64(double f) {
  if (std::isnan(f) || f >= 9223372036854775808.0 || f < -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(f);
}

// cast's trimZeroDecimal: "12.00" -> "12".
std::string TrimZeroDecimal(const std::string& s) {
  bool found_zero = false;
  for (size_t i = s.size(); i > 0; --i) {
    if (s[i - 1] == '.') {
      if (found_zero) return s.substr(0, i - 1);
    } else if (s[i - 1] == '0') {
      found_zero = true;
    } else {
      return s;
    }
  }
  return s;
}

// mergo.Merge (overwrite false) and MergeWithOverwrite of src into dst, both maps; dst and the maps
// nested in it change in place. mergo's isEmptyValue on an element is sprig's empty.
void DeepMerge(GoMap& dst, const GoMap& src, bool overwrite) {
  for (const auto& [key, s] : src) {
    const auto it = dst.find(key);
    const bool has = it != dst.end();
    if (s.kind == GoKind::kNil) {
      if (overwrite) dst[key] = s;
      continue;
    }
    const GoValue d = has ? it->second : GoValue{};
    if (s.kind == GoKind::kMap && d.kind == GoKind::kMap) DeepMerge(MutableMap(d), *s.map, overwrite);
    if (has && !Empty(d)) {
      if (s.kind == GoKind::kSlice) {
        dst[key] = overwrite ? s : d;
        continue;
      }
      if (s.kind == GoKind::kMap && d.kind == GoKind::kMap) continue;
    }
    if (overwrite || !has || Empty(d)) dst[key] = s;
  }
}

}  // namespace

util::Error Fail(std::string message) { return util::MakeError(util::ErrorKind::kInput, std::move(message)); }

GoValue Str(std::string s) { return GoValue::String(std::move(s)); }

// sprig's strval: a string as it is, anything else as %v.
std::string StrVal(const GoValue& v) { return v.kind == GoKind::kString ? v.s : util::GoSprint({v}); }

// sprig's empty: nil, false, 0, "" and empty containers; a struct never is.
bool Empty(const GoValue& v) {
  bool ok = true;
  return !gotemplate::IsTrue(v, &ok);
}

// ---- arguments as Go's call converts them ----

// An `int` parameter: only an int is assignable (a float64 or a string is refused).
Result<int64_t> IntArg(const GoValue& v) {
  if (v.kind == GoKind::kInt) return v.i;
  return Fail("wrong type for value; expected int; got " + (v.kind == GoKind::kNil ? std::string("interface {}") : v.TypeName()));
}

// A `map[string]interface{}` parameter (ArgType::kValue): a map, or a nil map for an untyped nil
// (returned as no value); a nil interface or any other type is refused.
Result<GoValue> MapArg(const GoValue& v) {
  if (v.kind == GoKind::kMap || v.kind == GoKind::kInvalid) return v;
  return Fail("wrong type for value; expected map[string]interface {}; got " +
              (v.kind == GoKind::kNil ? std::string("interface {}") : v.TypeName()));
}

const GoMap& MapOf(const GoValue& v) {
  static const GoMap kEmpty;
  return v.kind == GoKind::kMap ? *v.map : kEmpty;
}

// A map that Go would change in place.
GoMap& MutableMap(const GoValue& v) { return const_cast<GoMap&>(*v.map); }

// The value a function returning a map hands back: a nil map prints as map[] too.
GoValue MapResult(const GoValue& v) { return v.kind == GoKind::kMap ? v : GoValue::Map({}); }

// reflect.TypeOf(v).Kind() must be a slice: nil panics, anything else is refused.
Result<const GoSlice*> SliceArg(const GoValue& v, const std::string& what) {
  if (v.kind == GoKind::kSlice) return v.slice.get();
  if (v.kind == GoKind::kNil || v.kind == GoKind::kInvalid) {
    return Fail("runtime error: invalid memory address or nil pointer dereference");
  }
  return Fail("Cannot " + what + " on type " + (v.kind == GoKind::kMap ? std::string("map") : v.TypeName()));
}

// ---- spf13/cast ----

int64_t ToInt64(const GoValue& v) {
  switch (v.kind) {
    case GoKind::kInt: return v.i;
    case GoKind::kUint8: return static_cast<int64_t>(v.u);
    case GoKind::kFloat64: return FloatToInt64(v.re);
    case GoKind::kBool: return v.b ? 1 : 0;
    case GoKind::kString: return util::GoParseInt(TrimZeroDecimal(v.s)).value_or(0);
    default: return 0;
  }
}

double ToFloat64(const GoValue& v) {
  switch (v.kind) {
    case GoKind::kInt: return static_cast<double>(v.i);
    case GoKind::kUint8: return static_cast<double>(v.u);
    case GoKind::kFloat64: return v.re;
    case GoKind::kBool: return v.b ? 1 : 0;
    case GoKind::kString: return util::GoParseFloat(v.s).value_or(0);
    default: return 0;
  }
}

// ---- reflect.DeepEqual ----

bool DeepEqual(const GoValue& a, const GoValue& b) {
  const auto nil = [](const GoValue& v) { return v.kind == GoKind::kNil || v.kind == GoKind::kInvalid; };
  if (nil(a) || nil(b)) return nil(a) && nil(b);
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case GoKind::kBool: return a.b == b.b;
    case GoKind::kInt: return a.i == b.i;
    case GoKind::kUint8: return a.u == b.u;
    case GoKind::kFloat64: return a.re == b.re;
    case GoKind::kComplex128: return a.re == b.re && a.im == b.im;
    case GoKind::kString: return a.s == b.s;
    case GoKind::kMap:
      if (a.map->size() != b.map->size()) return false;
      for (const auto& [k, v] : *a.map) {
        const auto it = b.map->find(k);
        if (it == b.map->end() || !DeepEqual(v, it->second)) return false;
      }
      return true;
    case GoKind::kSlice:
      if (a.slice->size() != b.slice->size()) return false;
      for (size_t i = 0; i < a.slice->size(); ++i) {
        if (!DeepEqual((*a.slice)[i], (*b.slice)[i])) return false;
      }
      return true;
    case GoKind::kStruct: return a.st == b.st || util::GoSprintf("%#v", {a}) == util::GoSprintf("%#v", {b});
    default: return false;
  }
}

bool InList(const GoSlice& haystack, const GoValue& needle) {
  return std::any_of(haystack.begin(), haystack.end(), [&](const GoValue& h) { return DeepEqual(needle, h); });
}

// sprig's strslice: the elements (nil left out) as strval, or [strval(v)].
std::vector<std::string> StrSlice(const GoValue& v) {
  std::vector<std::string> out;
  if (v.kind == GoKind::kSlice) {
    for (const GoValue& item : *v.slice) {
      if (item.kind != GoKind::kNil && item.kind != GoKind::kInvalid) out.push_back(StrVal(item));
    }
    return out;
  }
  if (v.kind == GoKind::kNil || v.kind == GoKind::kInvalid) return out;
  out.push_back(StrVal(v));
  return out;
}

GoValue StringSlice(const std::vector<std::string>& items) {
  GoSlice out;
  for (const std::string& s : items) out.push_back(Str(s));
  return GoValue::Slice(std::move(out));
}

GoValue StringMap(const std::vector<std::string>& parts) {
  GoMap out;
  for (size_t i = 0; i < parts.size(); ++i) out["_" + std::to_string(i)] = Str(parts[i]);
  return GoValue::Map(std::move(out));
}

// ---- mergo ----

Result<GoValue> Merge(Args& a, bool overwrite) {
  GoValue dst = a[0].kind == GoKind::kMap ? a[0] : GoValue::Map({});
  for (size_t i = 1; i < a.size(); ++i) {
    if (a[i].kind == GoKind::kMap) DeepMerge(MutableMap(dst), *a[i].map, overwrite);
  }
  return dst;
}

GoValue DeepCopy(const GoValue& v) {
  if (v.kind == GoKind::kMap) {
    GoMap m;
    for (const auto& [k, item] : *v.map) m[k] = DeepCopy(item);
    return GoValue::Map(std::move(m));
  }
  if (v.kind == GoKind::kSlice) {
    GoSlice s;
    for (const GoValue& item : *v.slice) s.push_back(DeepCopy(item));
    return GoValue::Slice(std::move(s));
  }
  return v;
}

}  // namespace tazuna::manifest::sprig
