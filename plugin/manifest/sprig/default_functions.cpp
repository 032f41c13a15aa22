// sprig's default, empty, coalesce, all, any, ternary and deepCopy, and its reflection functions.
#include "manifest/sprig/function_map.hpp"

#include <algorithm>

namespace tazuna::manifest::sprig {

void AddDefaults(gotemplate::FunctionMap& m) {
  m["default"] = {Sig({kAny}, kAny), [](Args& a) -> Result<GoValue> { return a.size() < 2 || Empty(a[1]) ? a[0] : a[1]; }};
  m["empty"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(Empty(a[0])); }};
  m["coalesce"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                     for (const GoValue& v : a) {
                       if (!Empty(v)) return v;
                     }
                     return GoValue::Nil();
                   }};
  m["all"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                return GoValue::Bool(std::none_of(a.begin(), a.end(), [](const GoValue& v) { return Empty(v); }));
              }};
  m["any"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                return GoValue::Bool(std::any_of(a.begin(), a.end(), [](const GoValue& v) { return !Empty(v); }));
              }};
  m["ternary"] = {Sig({kAny, kAny, kAny}), [](Args& a) -> Result<GoValue> {
                    if (a[2].kind != GoKind::kBool) {
                      return Fail("wrong type for value; expected bool; got " + (a[2].kind == GoKind::kNil ? std::string("interface {}") : a[2].TypeName()));
                    }
                    return a[2].b ? a[0] : a[1];
                  }};
  const Body deep_copy = [](Args& a) -> Result<GoValue> {
    if (a[0].kind == GoKind::kNil) return Fail("deepCopy error: copystructure: nil value");
    return DeepCopy(a[0]);
  };
  m["deepCopy"] = {Sig({kAny}), deep_copy};
  m["mustDeepCopy"] = {Sig({kAny}), deep_copy};
  m["typeOf"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return Str(a[0].TypeName()); }};
  m["typeIs"] = {Sig({kStr, kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(a[0].s == a[1].TypeName()); }};
  m["typeIsLike"] = {Sig({kStr, kAny}), [](Args& a) -> Result<GoValue> {
                       const std::string t = a[1].TypeName();
                       return GoValue::Bool(a[0].s == t || "*" + a[0].s == t);
                     }};
  const auto kind_of = [](const GoValue& v) -> std::string {
    switch (v.kind) {
      case GoKind::kNil:
      case GoKind::kInvalid: return "invalid";
      case GoKind::kMap: return "map";
      case GoKind::kSlice: return "slice";
      case GoKind::kStruct: return "struct";
      default: return v.TypeName();
    }
  };
  m["kindOf"] = {Sig({kAny}), [kind_of](Args& a) -> Result<GoValue> { return Str(kind_of(a[0])); }};
  m["kindIs"] = {Sig({kStr, kAny}), [kind_of](Args& a) -> Result<GoValue> { return GoValue::Bool(a[0].s == kind_of(a[1])); }};
  m["deepEqual"] = {Sig({kAny, kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(DeepEqual(a[0], a[1])); }};
}

}  // namespace tazuna::manifest::sprig
