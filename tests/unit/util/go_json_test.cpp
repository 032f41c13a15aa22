#include "util/go_json.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <doctest/doctest.h>

namespace tazuna::util {
namespace {

struct FloatCase {
  double value;
  const char* json;     // encoding/json.Marshal(float64)
  const char* float32;  // strconv.FormatFloat(f, 'g', -1, 32)
};

// Expected strings were printed by Go 1.26 (encoding/json and strconv).
const FloatCase kFloatCases[] = {
    {0, "0", "0"},
    {-0.0, "-0", "-0"},
    {1, "1", "1"},
    {-1, "-1", "-1"},
    {0.5, "0.5", "0.5"},
    {1e20, "100000000000000000000", "1e+20"},
    {1e21, "1e+21", "1e+21"},
    {1e-6, "0.000001", "1e-06"},
    {1e-7, "1e-7", "1e-07"},
    {123456789012345678.0, "123456789012345680", "1.2345679e+17"},
    {9007199254740993.0, "9007199254740992", "9.007199e+15"},
    {1.5e-7, "1.5e-7", "1.5e-07"},
    {1e100, "1e+100", "+Inf"},
    {123e-20, "1.23e-18", "1.23e-18"},
    {999999999999999999999.0, "1e+21", "1e+21"},
    {1e300, "1e+300", "+Inf"},
    {5e-324, "5e-324", "0"},
    {1.7976931348623157e308, "1.7976931348623157e+308", "+Inf"},
    {0.1, "0.1", "0.1"},
    {100, "100", "100"},
    {1234567, "1234567", "1.234567e+06"},
    {2.5e-6, "0.0000025", "2.5e-06"},
    {12345.678, "12345.678", "12345.678"},
    {-1e-7, "-1e-7", "-1e-07"},
    {18446744073709551615.0, "18446744073709552000", "1.8446744e+19"},
};

TEST_CASE("go json: floats at the format boundaries match encoding/json") {
  for (const auto& c : kFloatCases) {
    CAPTURE(c.json);
    CHECK(FormatGoFloat64(c.value) == c.json);
    CHECK(FormatGoFloat32G(c.value) == c.float32);
  }
}

TEST_CASE("go json: non-finite floats") {
  CHECK(FormatGoFloat32G(std::numeric_limits<double>::infinity()) == "+Inf");
  CHECK(FormatGoFloat32G(-std::numeric_limits<double>::infinity()) == "-Inf");
  CHECK(FormatGoFloat32G(std::nan("")) == "NaN");
  CHECK(FormatGoFloat64(std::nan("")) == "null");
}

TEST_CASE("go json: every number is a float64") {
  CHECK(GoJsonMarshal(nlohmann::json(3)) == "3");
  CHECK(GoJsonMarshal(nlohmann::json(int64_t{9007199254740993})) == "9007199254740992");
  CHECK(GoJsonMarshal(nlohmann::json(uint64_t{18446744073709551615u})) == "18446744073709552000");
  CHECK(GoJsonMarshal(nlohmann::json(int64_t{-123456789012345678})) == "-123456789012345680");
  CHECK(GoJsonMarshal(nlohmann::json(3.0)) == "3");
  CHECK(GoJsonMarshal(nlohmann::json(-0.0)) == "-0");
}

TEST_CASE("go json: strings are escaped as encoding/json does") {
  // Go: json.Marshal("a<b>&\"\\\n\r\t\b\f\x01\x1f\x7f\u2028\u2029\xff\xed\xa0\x80é日本😀\ufffd")
  const std::string in =
      "a<b>&\"\\\n\r\t\b\f\x01\x1f\x7f\xe2\x80\xa8\xe2\x80\xa9\xff\xed\xa0\x80"
      "\xc3\xa9\xe6\x97\xa5\xe6\x9c\xac\xf0\x9f\x98\x80\xef\xbf\xbd";
  const std::string want =
      "\"a\\u003cb\\u003e\\u0026\\\"\\\\\\n\\r\\t\\b\\f\\u0001\\u001f\x7f\\u2028\\u2029"
      "\\ufffd\\ufffd\\ufffd\\ufffd\xc3\xa9\xe6\x97\xa5\xe6\x9c\xac\xf0\x9f\x98\x80\xef\xbf\xbd\"";
  CHECK(GoJsonMarshal(nlohmann::json(in)) == want);
}

TEST_CASE("go json: invalid utf-8 sequences become one \\ufffd per bad byte") {
  struct Case {
    std::string in, want;
  };
  const Case cases[] = {
      {"\xc3", "\"\\ufffd\""},                    // truncated 2-byte sequence
      {"\xe2\x82", "\"\\ufffd\\ufffd\""},         // truncated 3-byte sequence
      {"\xc0\xaf", "\"\\ufffd\\ufffd\""},         // overlong
      {"\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""},  // above U+10FFFF
      {"a\x80z", "\"a\\ufffdz\""},
  };
  for (const auto& c : cases) CHECK(GoJsonMarshal(nlohmann::json(c.in)) == c.want);
}

TEST_CASE("go json: compact with keys sorted bytewise, arrays keep order") {
  nlohmann::json v = nlohmann::json::parse(
      R"({"b":[3,1,{"z":null,"a":true}],"a":false,"B":"x","\u00e9":{},"_":[]})");
  CHECK(GoJsonMarshal(v) == "{\"B\":\"x\",\"_\":[],\"a\":false,\"b\":[3,1,{\"a\":true,\"z\":null}],"
                            "\"\xc3\xa9\":{}}");
  CHECK(GoJsonMarshal(nlohmann::json()) == "null");
}

}  // namespace
}  // namespace tazuna::util
