#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tazuna::util {

/// The Go types a value of the text/template twin can have (what reflect.Kind and the type name say).
enum class GoKind {
  kInvalid,     ///< reflect.Value{}: no value at all
  kNil,         ///< a nil interface{} (an untyped nil passed as `any`, a YAML null in a map or list)
  kBool,        ///< bool
  kInt,         ///< int (64 bits)
  kUint8,       ///< uint8 (a byte from `index` of a string)
  kFloat64,     ///< float64
  kComplex128,  ///< complex128
  kString,      ///< string
  kStruct,      ///< a struct with named fields (the template data of tazuna.yaml)
  kMap,         ///< map[string]interface {} (YAML mappings); iterated and printed in key order
  kSlice,       ///< []interface {} (YAML sequences)
};

struct GoValue;
/// A struct value: its type name as Go prints it (`tmpl.Data`) and its fields in order.
struct GoStruct {
  std::string type_name;
  std::vector<std::pair<std::string, GoValue>> fields;
};
using GoMap = std::map<std::string, GoValue>;
using GoSlice = std::vector<GoValue>;

/// One Go value. Only the members of its kind are meaningful; containers are shared and immutable.
struct GoValue {
  GoKind kind = GoKind::kInvalid;
  bool b = false;
  int64_t i = 0;          ///< kInt
  uint64_t u = 0;         ///< kUint8
  double re = 0, im = 0;  ///< kFloat64 (re), kComplex128
  std::string s;          ///< kString
  std::shared_ptr<const GoStruct> st;
  std::shared_ptr<const GoMap> map;
  std::shared_ptr<const GoSlice> slice;

  static GoValue Of(GoKind kind) {
    GoValue x;
    x.kind = kind;
    return x;
  }
  static GoValue Nil() { return Of(GoKind::kNil); }
  static GoValue Bool(bool v) {
    GoValue x = Of(GoKind::kBool);
    x.b = v;
    return x;
  }
  static GoValue Int(int64_t v) {
    GoValue x = Of(GoKind::kInt);
    x.i = v;
    return x;
  }
  static GoValue Uint8(uint8_t v) {
    GoValue x = Of(GoKind::kUint8);
    x.u = v;
    return x;
  }
  static GoValue Float(double v) {
    GoValue x = Of(GoKind::kFloat64);
    x.re = v;
    return x;
  }
  static GoValue Complex(double r, double i) {
    GoValue x = Of(GoKind::kComplex128);
    x.re = r;
    x.im = i;
    return x;
  }
  static GoValue String(std::string v) {
    GoValue x = Of(GoKind::kString);
    x.s = std::move(v);
    return x;
  }
  static GoValue Struct(GoStruct v) {
    GoValue x = Of(GoKind::kStruct);
    x.st = std::make_shared<const GoStruct>(std::move(v));
    return x;
  }
  static GoValue Map(GoMap v) {
    GoValue x = Of(GoKind::kMap);
    // A non-const object behind the const view: set, unset, merge and mergeOverwrite write through it, as Go
    // writes through a map it was given (manifest/sprig/dict_functions.cpp, values.cpp).
    x.map = std::make_shared<GoMap>(std::move(v));
    return x;
  }
  static GoValue Slice(GoSlice v) {
    GoValue x = Of(GoKind::kSlice);
    x.slice = std::make_shared<const GoSlice>(std::move(v));
    return x;
  }
  /// Go's reflect.Type.String(): int, uint8, float64, complex128, string, bool, the struct's name,
  /// map[string]interface {}, []interface {}; `<nil>` for nil and invalid values.
  std::string TypeName() const;
};

inline std::string GoValue::TypeName() const {
  switch (kind) {
    case GoKind::kBool: return "bool";
    case GoKind::kInt: return "int";
    case GoKind::kUint8: return "uint8";
    case GoKind::kFloat64: return "float64";
    case GoKind::kComplex128: return "complex128";
    case GoKind::kString: return "string";
    case GoKind::kStruct: return st->type_name;
    case GoKind::kMap: return "map[string]interface {}";
    case GoKind::kSlice: return "[]interface {}";
    case GoKind::kNil:
    case GoKind::kInvalid: break;
  }
  return "<nil>";
}

}  // namespace tazuna::util
