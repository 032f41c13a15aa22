#include "util/sha256.hpp"

#include <doctest/doctest.h>

#include "util/base64.hpp"

namespace tazuna::util {
namespace {

TEST_CASE("sha256: known vectors in lowercase hex") {
  CHECK(Sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("base64: encode matches the standard vectors") {
  const std::pair<const char*, const char*> cases[] = {
      {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},         {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : cases) {
    CHECK(Base64Encode(plain) == encoded);
    auto decoded = Base64Decode(encoded);
    REQUIRE(decoded);
    CHECK(*decoded == plain);
  }
}

TEST_CASE("base64: round-trips every byte value") {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t n = 0; n <= all.size(); n += 37) {
    auto decoded = Base64Decode(Base64Encode(all.substr(0, n)));
    REQUIRE(decoded);
    CHECK(*decoded == all.substr(0, n));
  }
}

TEST_CASE("base64: malformed input is an error naming the byte") {
  CHECK(Base64Decode("Zm9v\nYmFy").value() == "foobar");
  auto bad = Base64Decode("Zm9*");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().kind == ErrorKind::kInput);
  CHECK(bad.error().message == "illegal base64 data at input byte 3");
  CHECK_FALSE(Base64Decode("Zm9"));
  CHECK_FALSE(Base64Decode("Z==="));
  CHECK_FALSE(Base64Decode("Zg==Zg=="));
}

}  // namespace
}  // namespace tazuna::util
