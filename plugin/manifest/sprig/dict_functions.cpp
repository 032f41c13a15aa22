// sprig's dict functions. set, unset, merge and mergeOverwrite change the map they are given
// (values.hpp says why).
#include "manifest/sprig/function_map.hpp"

namespace tazuna::manifest::sprig {

void AddDicts(gotemplate::FunctionMap& m) {
  m["dict"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                 GoMap out;
                 for (size_t i = 0; i < a.size(); i += 2) out[StrVal(a[i])] = i + 1 < a.size() ? a[i + 1] : Str("");
                 return GoValue::Map(std::move(out));
               }};
  m["get"] = {Sig({kVal, kStr}), [](Args& a) -> Result<GoValue> {
                auto d = MapArg(a[0]);
                if (!d) return d.error();
                const GoMap& map = MapOf(*d);
                const auto it = map.find(a[1].s);
                return it == map.end() ? Str("") : it->second;
              }};
  m["set"] = {Sig({kVal, kStr, kAny}), [](Args& a) -> Result<GoValue> {
                auto d = MapArg(a[0]);
                if (!d) return d.error();
                if (d->kind != GoKind::kMap) return Fail("assignment to entry in nil map");
                MutableMap(*d)[a[1].s] = a[2];
                return *d;
              }};
  m["unset"] = {Sig({kVal, kStr}), [](Args& a) -> Result<GoValue> {
                  auto d = MapArg(a[0]);
                  if (!d) return d.error();
                  if (d->kind == GoKind::kMap) MutableMap(*d).erase(a[1].s);
                  return MapResult(*d);
                }};
  m["hasKey"] = {Sig({kVal, kStr}), [](Args& a) -> Result<GoValue> {
                   auto d = MapArg(a[0]);
                   if (!d) return d.error();
                   return GoValue::Bool(MapOf(*d).count(a[1].s) > 0);
                 }};
  m["pluck"] = {Sig({kStr}, kVal), [](Args& a) -> Result<GoValue> {
                  GoSlice out;
                  for (size_t i = 1; i < a.size(); ++i) {
                    auto d = MapArg(a[i]);
                    if (!d) return d.error();
                    const auto it = MapOf(*d).find(a[0].s);
                    if (it != MapOf(*d).end()) out.push_back(it->second);
                  }
                  return GoValue::Slice(std::move(out));
                }};
  // Go lists the keys and values in its random map order; these give the sorted one.
  m["keys"] = {Sig({}, kVal), [](Args& a) -> Result<GoValue> {
                 std::vector<std::string> out;
                 for (const GoValue& v : a) {
                   auto d = MapArg(v);
                   if (!d) return d.error();
                   for (const auto& [k, item] : MapOf(*d)) out.push_back(k);
                 }
                 return StringSlice(out);
               }};
  m["values"] = {Sig({kVal}), [](Args& a) -> Result<GoValue> {
                   auto d = MapArg(a[0]);
                   if (!d) return d.error();
                   GoSlice out;
                   for (const auto& [k, item] : MapOf(*d)) out.push_back(item);
                   return GoValue::Slice(std::move(out));
                 }};
  m["pick"] = {Sig({kVal}, kStr), [](Args& a) -> Result<GoValue> {
                 auto d = MapArg(a[0]);
                 if (!d) return d.error();
                 GoMap out;
                 for (size_t i = 1; i < a.size(); ++i) {
                   const auto it = MapOf(*d).find(a[i].s);
                   if (it != MapOf(*d).end()) out[it->first] = it->second;
                 }
                 return GoValue::Map(std::move(out));
               }};
  m["omit"] = {Sig({kVal}, kStr), [](Args& a) -> Result<GoValue> {
                 auto d = MapArg(a[0]);
                 if (!d) return d.error();
                 GoMap out = MapOf(*d);
                 for (size_t i = 1; i < a.size(); ++i) out.erase(a[i].s);
                 return GoValue::Map(std::move(out));
               }};
  const auto merge = [](bool overwrite) {
    return [overwrite](Args& a) -> Result<GoValue> {
      for (const GoValue& v : a) {
        if (auto d = MapArg(v); !d) return d.error();
      }
      return Merge(a, overwrite);
    };
  };
  m["merge"] = {Sig({kVal}, kVal), merge(false)};
  m["mustMerge"] = {Sig({kVal}, kVal), merge(false)};
  m["mergeOverwrite"] = {Sig({kVal}, kVal), merge(true)};
  m["mustMergeOverwrite"] = {Sig({kVal}, kVal), merge(true)};
  m["dig"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                if (a.size() < 3) return Fail("dig needs at least three arguments");
                if (a.back().kind != GoKind::kMap) return Fail("interface conversion: interface {} is " + a.back().TypeName() + ", not map[string]interface {}");
                for (size_t i = 0; i + 2 < a.size(); ++i) {
                  if (a[i].kind != GoKind::kString) return Fail("interface conversion: interface {} is " + a[i].TypeName() + ", not string");
                }
                const GoMap* map = a.back().map.get();
                for (size_t i = 0; i + 2 < a.size(); ++i) {
                  const auto it = map->find(a[i].s);
                  if (it == map->end()) return a[a.size() - 2];
                  if (i + 3 == a.size()) return it->second;
                  if (it->second.kind != GoKind::kMap) {
                    return Fail("interface conversion: interface {} is " + it->second.TypeName() + ", not map[string]interface {}");
                  }
                  map = it->second.map.get();
                }
                return a[a.size() - 2];
              }};
}

}  // namespace tazuna::manifest::sprig
