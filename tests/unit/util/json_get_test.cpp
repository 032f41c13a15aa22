#include "util/json_get.hpp"

#include <doctest/doctest.h>

#include "util/parallel.hpp"

#include <chrono>
#include <thread>

namespace tazuna::util {
namespace {

using nlohmann::json;

TEST_CASE("json get: a value of the wrong type reads as absent, never a throw") {
  const json j = json::parse(
      R"({"s":"x","n":5,"big":18446744073709551615,"b":true,"o":{"k":"v"},"a":[1],"nul":null,"metadata":{"name":7,"uid":"u"}})");
  CHECK(JsonString(j, "s") == "x");
  CHECK(JsonString(j, "n") == "");
  CHECK(JsonString(j, "missing", "d") == "d");
  CHECK(JsonString(json("scalar"), "s") == "");
  CHECK(JsonInt(j, "n") == 5);
  CHECK(JsonInt(j, "big", -1) == -1);
  CHECK(JsonInt(j, "s", 3) == 3);
  CHECK(JsonBool(j, "b"));
  CHECK_FALSE(JsonBool(j, "s"));
  CHECK(JsonObject(j, "o").size() == 1);
  CHECK(JsonObject(j, "a").empty());
  CHECK(JsonObject(json::array(), "o").is_object());
  CHECK(JsonArray(j, "a").size() == 1);
  CHECK(JsonArray(j, "o").is_array());
  CHECK(JsonField(j, "nul").is_null());
  CHECK(JsonField(json(3), "x").is_null());
  CHECK(MetaString(j, "name") == "");
  CHECK(MetaString(j, "uid") == "u");
  CHECK(MetaString(json("x"), "uid") == "");
}

TEST_CASE("json get: WritableObject replaces a member of another shape") {
  json lease = json::parse(R"({"spec":"not an object","metadata":{"annotations":[1]}})");
  WritableObject(lease, "spec")["renewTime"] = "t";
  WritableObject(WritableObject(lease, "metadata"), "annotations")["a"] = "b";
  CHECK(lease.dump() == R"({"metadata":{"annotations":{"a":"b"}},"spec":{"renewTime":"t"}})");
  json scalar = 5;
  WritableObject(scalar, "x")["y"] = 1;
  CHECK(scalar.dump() == R"({"x":{"y":1}})");
}

TEST_CASE("json get: nesting depth of JSON text, strings skipped") {
  CHECK_FALSE(NestsDeeperThan(R"({"a":[1,{"b":2}]})", 3));
  CHECK(NestsDeeperThan(R"({"a":[1,{"b":2}]})", 2));
  CHECK_FALSE(NestsDeeperThan(R"({"a":"[[[[[\"[[[["})", 1));
  CHECK(NestsDeeperThan(std::string(5000, '['), kMaxJsonDepth));
  CHECK_FALSE(NestsDeeperThan("not json ]]]", 0));
}

TEST_CASE("parallel: an exception in a worker reaches the caller, and stops new items") {
  std::atomic<int> ran{0};
  bool caught = false;
  try {
    // Every other item takes a millisecond, so the 1000 items take far longer than the throw needs
    // to be caught even under a sanitizer (where throwing is slow): items already started may still
    // finish, but the run stops long before the end.
    ParallelFor(1000, 4, [&](size_t i) {
      ++ran;
      if (i == 3) throw std::runtime_error("boom");
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
  } catch (const std::runtime_error& e) {
    caught = std::string(e.what()) == "boom";
  }
  CHECK(caught);
  CHECK(ran.load() < 1000);
}

}  // namespace
}  // namespace tazuna::util
