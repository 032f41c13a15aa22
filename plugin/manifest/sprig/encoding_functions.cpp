// sprig's encoding, hash and path functions, and the Go tool's toYaml, fromYaml, toJson and fromJson
// with sprig's other JSON functions.
#include "manifest/sprig/function_map.hpp"

#include "manifest/sprig/encodings.hpp"
#include "manifest/sprig/json.hpp"
#include "util/base64.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest::sprig {

void AddEncodings(gotemplate::FunctionMap& m) {
  m["b64enc"] = {Sig({kStr}), StringFn([](const std::string& s) { return util::Base64Encode(s); })};
  m["b64dec"] = {Sig({kStr}), StringFn([](const std::string& s) {
                   // Go reports the first byte outside the alphabet where it stands.
                   const size_t bad = s.find_first_not_of(
                       "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\r\n");
                   if (bad != std::string::npos && s.find('=') > bad) {
                     return "illegal base64 data at input byte " + std::to_string(bad);
                   }
                   auto out = util::Base64Decode(s);
                   return out ? *out : out.error().message;
                 })};
  m["b32enc"] = {Sig({kStr}), StringFn(Base32Encode)};
  m["b32dec"] = {Sig({kStr}), StringFn([](const std::string& s) {
                   return Base32Decode(s).value_or("illegal base32 data at input byte 0");
                 })};
  m["sha1sum"] = {Sig({kStr}), StringFn(Sha1Hex)};
  m["sha256sum"] = {Sig({kStr}), StringFn([](const std::string& s) { return util::Sha256Hex(s); })};
  m["sha512sum"] = {Sig({kStr}), StringFn(Sha512Hex)};
  m["adler32sum"] = {Sig({kStr}), StringFn([](const std::string& s) { return std::to_string(Adler32(s)); })};
  for (const std::string prefix : {"", "os"}) {
    const auto name = [&](std::string base) {
      if (prefix.empty()) return base;
      base[0] = static_cast<char>(base[0] - 'a' + 'A');
      return prefix + base;
    };
    m[name("base")] = {Sig({kStr}), StringFn(BasePath)};
    m[name("dir")] = {Sig({kStr}), StringFn(DirPath)};
    m[name("clean")] = {Sig({kStr}), StringFn(CleanPath)};
    m[name("ext")] = {Sig({kStr}), StringFn(ExtPath)};
    m[name("isAbs")] = {Sig({kStr}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(util::StartsWith(a[0].s, "/")); }};
  }
  // The Go tool's four.
  m["toYaml"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return Str(ToYaml(a[0])); }};
  m["fromYaml"] = {Sig({kStr}), [](Args& a) -> Result<GoValue> { return FromYaml(a[0].s); }};
  m["toJson"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return Str(MarshalJson(a[0]).value_or("")); }};
  m["fromJson"] = {Sig({kStr}), [](Args& a) -> Result<GoValue> {
                     const auto j = ParseJson(a[0].s);
                     if (!j) return GoValue::Map({{"Error", Str("invalid character in JSON input")}});
                     if (j->is_null()) return GoValue::Map({});
                     if (!j->is_object()) {
                       return GoValue::Map({{"Error", Str("json: cannot unmarshal non-object into Go value of type map[string]interface {}")}});
                     }
                     return FromJsonValue(*j);
                   }};
  // sprig's.
  m["mustToJson"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                       auto out = MarshalJson(a[0]);
                       if (!out) return Fail("json: unsupported value");
                       return Str(*out);
                     }};
  m["toPrettyJson"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                         auto out = MarshalJson(a[0]);
                         return Str(out ? IndentJson(*out) : "");
                       }};
  m["mustToPrettyJson"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                             auto out = MarshalJson(a[0]);
                             if (!out) return Fail("json: unsupported value");
                             return Str(IndentJson(*out));
                           }};
  const Body raw = [](Args& a) -> Result<GoValue> {
    auto out = MarshalJson(a[0]);
    if (!out) return Fail("json: unsupported value");
    return Str(UnescapeHtml(*out));
  };
  m["toRawJson"] = {Sig({kAny}), raw};
  m["mustToRawJson"] = {Sig({kAny}), raw};
  m["mustFromJson"] = {Sig({kStr}), [](Args& a) -> Result<GoValue> {
                         const auto j = ParseJson(a[0].s);
                         if (!j) return Fail("invalid JSON");
                         return FromJsonValue(*j);
                       }};
}

}  // namespace tazuna::manifest::sprig
