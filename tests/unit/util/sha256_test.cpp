#include "util/sha256.hpp"

#include <doctest/doctest.h>

#include "util/base64.hpp"

namespace tazuna::util {
namespace {

TEST_CASE("sha256: known vectors in lowercase hex") {
  CHECK(Sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("hmac-sha256: RFC 4231 test cases 1 and 2") {
  CHECK(HmacSha256Hex(std::string(20, '\x0b'), "Hi There") ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(HmacSha256Hex("Jefe", "what do ya want for nothing?") ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST_CASE("random bytes: the length asked for, and not all alike") {
  const std::string a = RandomBytes(32), b = RandomBytes(32);
  CHECK(a.size() == 32);
  CHECK(a != b);
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
