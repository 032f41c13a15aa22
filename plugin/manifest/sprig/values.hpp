#pragma once

// Go values as sprig's functions see them: the conversions Go's call applies to arguments, spf13/cast,
// reflect.DeepEqual, sprig's strval/strslice/empty, and mergo's merges.
//
// Go passes maps by reference: set, unset, merge and mergeOverwrite change the map they are given, and
// a template sees the change through every variable holding it. GoValue containers are shared and
// const, so those functions (only they) write through the shared map (MutableMap, Merge), as Go does.

#include <cstdint>
#include <string>
#include <vector>

#include "util/error.hpp"
#include "util/go_value.hpp"
#include "util/result.hpp"

namespace tazuna::manifest::sprig {

using util::GoKind;
using util::GoMap;
using util::GoSlice;
using util::GoValue;
using util::Result;
/// The evaluated arguments of a call.
using Args = std::vector<GoValue>;

/// A kInput error with Go's message (a panic or an error a function returns).
util::Error Fail(std::string message);
/// A Go string value.
GoValue Str(std::string s);
/// sprig's strval: a string as it is, anything else as %v.
std::string StrVal(const GoValue& v);
/// sprig's empty: nil, false, 0, "" and empty containers; a struct never is.
bool Empty(const GoValue& v);

/// An `int` parameter: only an int is assignable (a float64 or a string is refused, kInput).
Result<int64_t> IntArg(const GoValue& v);
/// A `map[string]interface{}` parameter (ArgType::kValue): a map, or a nil map for an untyped nil
/// (returned as no value); a nil interface or any other type is refused (kInput).
Result<GoValue> MapArg(const GoValue& v);
/// The entries of a map; none for a nil map.
const GoMap& MapOf(const GoValue& v);
/// The map `v` holds (v must be a map), to change in place as Go would.
GoMap& MutableMap(const GoValue& v);
/// The value a function returning a map hands back: a nil map prints as map[] too.
GoValue MapResult(const GoValue& v);
/// reflect.TypeOf(v).Kind() must be a slice: nil panics, anything else is refused with
/// "Cannot <what> on type <type>" (both kInput). The slice is owned by `v`.
Result<const GoSlice*> SliceArg(const GoValue& v, const std::string& what);

/// spf13/cast's ToInt64 and ToFloat64: 0 for what they cannot convert.
int64_t ToInt64(const GoValue& v);
double ToFloat64(const GoValue& v);

/// reflect.DeepEqual; InList: whether some element of `haystack` is DeepEqual to `needle`.
bool DeepEqual(const GoValue& a, const GoValue& b);
bool InList(const GoSlice& haystack, const GoValue& needle);

/// sprig's strslice: the elements (nil left out) as strval, or [strval(v)] (none for nil).
std::vector<std::string> StrSlice(const GoValue& v);
/// A []string as a Go slice value, and as sprig's split gives it (a map of "_0", "_1", ...).
GoValue StringSlice(const std::vector<std::string>& items);
GoValue StringMap(const std::vector<std::string>& parts);

/// sprig's merge (mergo.Merge) and mergeOverwrite (mergo.MergeWithOverwrite) of the maps a[1:] into
/// a[0], which changes in place (with the maps nested in it) and is returned; a new map if a[0] is nil.
Result<GoValue> Merge(Args& a, bool overwrite);
/// copystructure's Copy: maps and slices copied all the way down.
GoValue DeepCopy(const GoValue& v);

}  // namespace tazuna::manifest::sprig
