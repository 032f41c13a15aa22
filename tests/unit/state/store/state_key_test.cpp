#include "state/store/state_key.hpp"

#include <random>
#include <string>

#include <doctest/doctest.h>

namespace tazuna::state {
namespace {

using nlohmann::json;

TEST_CASE("state key: core group is an empty segment") {
  json cm = {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
             {"metadata", {{"name", "cfg"}, {"namespace", "default"}}}};
  const StateKey key = KeyFor("web", cm);
  CHECK(key == StateKey{"web", "", "v1", "ConfigMap", "default", "cfg"});
  CHECK(key.ToString() == "web//v1/ConfigMap/default/cfg");
  CHECK(key.ApiVersion() == "v1");
}

TEST_CASE("state key: cluster-scoped objects have 5 parts") {
  json cr = {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "ClusterRole"},
             {"metadata", {{"name", "cert-manager-webhook:subjectaccessreviews"}}}};
  const StateKey key = KeyFor("cert-manager", cr);
  CHECK(key.ToString() ==
        "cert-manager/rbac.authorization.k8s.io/v1/ClusterRole/cert-manager-webhook:subjectaccessreviews");
  CHECK(key.ApiVersion() == "rbac.authorization.k8s.io/v1");
  json empty_ns = cr;
  empty_ns["metadata"]["namespace"] = "";
  CHECK(KeyFor("cert-manager", empty_ns) == key);
}

TEST_CASE("state key: parse accepts 5 or 6 parts") {
  struct Case {
    const char* text;
    StateKey want;
  };
  const Case cases[] = {
      {"web//v1/ConfigMap/default/cfg", {"web", "", "v1", "ConfigMap", "default", "cfg"}},
      {"m/apps/v1/Deployment/ns/web", {"m", "apps", "v1", "Deployment", "ns", "web"}},
      {"m//v1/Namespace/tazuna", {"m", "", "v1", "Namespace", "", "tazuna"}},
      {"m/g/v/K/ns/a/b", {"m", "g", "v", "K", "ns", "a/b"}},  // SplitN 6 keeps the rest
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto parsed = ParseStateKey(c.text);
    REQUIRE(parsed);
    CHECK(*parsed == c.want);
    if (std::string(c.text).find("a/b") == std::string::npos) CHECK(parsed->ToString() == c.text);
  }
}

TEST_CASE("state key: a key naming no object a request can reach has a name problem") {
  struct Case {
    std::string key;
    std::optional<std::string> problem;
  };
  const Case cases[] = {
      {"m//v1/ConfigMap/ns/cfg", std::nullopt},
      {"m/rbac.authorization.k8s.io/v1/ClusterRole/system:aggregate-to-view", std::nullopt},
      {"m//v1/ConfigMap/ns/a/../../victim", "name \"a/../../victim\": may not contain '/'"},
      {"m//v1/ConfigMap/ns/..", "name \"..\": may not be '.' or '..'"},
      {"m//v1/ConfigMap/ns/x?dryRun=All", "name \"x?dryRun=All\": may not contain '?'"},
      {"m//v1/ConfigMap/Bad_NS/cfg",
       "invalid namespace \"Bad_NS\": use lowercase letters, digits and '-', starting and ending with a letter or digit "
       "(at most 63 characters)"},
      {"m//v1/Namespace/", "name \"\": may not be empty"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.key);
    auto parsed = ParseStateKey(c.key);
    REQUIRE(parsed);
    CHECK(KeyNameProblem(*parsed) == c.problem);
  }
}

TEST_CASE("state key: parse rejects other shapes") {
  auto bad = ParseStateKey("m/v1/ConfigMap/x");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().kind == util::ErrorKind::kInput);
  CHECK(bad.error().message ==
        "invalid state key \"m/v1/ConfigMap/x\": want 5 or 6 '/'-separated parts, got 4");
  CHECK_FALSE(ParseStateKey(""));
}

TEST_CASE("state key: data key encoding matches the Go tool") {
  const std::pair<const char*, const char*> cases[] = {
      {"cert-manager/rbac.authorization.k8s.io/v1/ClusterRole/cert-manager-webhook:subjectaccessreviews",
       "cert-manager__rbac.authorization.k8s.io__v1__ClusterRole__cert-manager-webhook_x3asubjectaccessreviews"},
      {"web//v1/ConfigMap/default/cfg", "web____v1__ConfigMap__default__cfg"},
      {"my_app//v1/Secret/ns/s", "my_x5fapp____v1__Secret__ns__s"},
      {"a b\xff", "a_x20b_xff"},
  };
  for (const auto& [key, data_key] : cases) {
    CHECK(EncodeDataKey(key) == data_key);
    CHECK(DecodeDataKey(data_key) == key);
  }
}

TEST_CASE("state key: decode accepts the legacy plain form and stray underscores") {
  CHECK(DecodeDataKey("web____v1__ConfigMap__default__cfg") == "web//v1/ConfigMap/default/cfg");
  CHECK(DecodeDataKey("a_b") == "a_b");
  CHECK(DecodeDataKey("a_xZZ") == "a_xZZ");
  CHECK(DecodeDataKey("a_x4") == "a_x4");
  CHECK(DecodeDataKey("a_x4A") == "aJ");
  CHECK(DecodeDataKey("trailing_") == "trailing_");
}

bool IsConfigMapKey(const std::string& key) {
  if (key.empty() || key.size() > kMaxDataKeyLength) return false;
  for (char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '.' || c == '_';
    if (!ok) return false;
  }
  return true;
}

TEST_CASE("state key: random byte strings round-trip and encode to valid key characters") {
  std::mt19937 rng(20240601);
  for (int iter = 0; iter < 2000; ++iter) {
    std::string key(rng() % 64 + 1, '\0');
    for (char& c : key) c = static_cast<char>(rng() % 4 == 0 ? "/_:x"[rng() % 4] : rng() % 256);
    const std::string encoded = EncodeDataKey(key);
    CHECK(DecodeDataKey(encoded) == key);
    CHECK(IsConfigMapKey(encoded.substr(0, kMaxDataKeyLength)));
  }
}

TEST_CASE("state key: RBAC names with ':' and 253-byte names") {
  const std::string long_name(253, 'a');
  const StateKey key{"m", "rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", "", "system:" + long_name};
  const std::string text = key.ToString();
  const std::string encoded = EncodeDataKey(text);
  CHECK(DecodeDataKey(encoded) == text);
  CHECK(encoded.size() > kMaxDataKeyLength);
  const std::string stored = DataKeyFor(text);
  CHECK(stored == HashedDataKey(text));
  CHECK(stored.size() == 42);
  CHECK(stored.rfind("_h", 0) == 0);
  CHECK(IsConfigMapKey(stored));
  CHECK(IsHashedDataKey(stored));
  CHECK_FALSE(IsHashedDataKey(encoded));
  CHECK_FALSE(IsHashedDataKey("_metadata"));
  CHECK(HashedDataKey(text) == HashedDataKey(text));
  CHECK(HashedDataKey(text) != HashedDataKey(text + "x"));
  // Short keys are stored as they encode.
  CHECK(DataKeyFor("web//v1/ConfigMap/default/cfg") == "web____v1__ConfigMap__default__cfg");
}

TEST_CASE("state key: entry values") {
  const std::string hash(64, 'a');
  CHECK(EncodeEntry(hash, "") == "{\"contentHash\":\"" + hash + "\"}");
  CHECK(EncodeEntry(hash, "m/g/v/K/<n>") ==
        "{\"contentHash\":\"" + hash + "\",\"key\":\"m/g/v/K/\\u003cn\\u003e\"}");
  auto plain = DecodeEntry("{\"contentHash\":\"" + hash + "\"}");
  REQUIRE(plain);
  CHECK(*plain == Entry{hash, ""});
  auto full = DecodeEntry(EncodeEntry(hash, "m/g/v/K/<n>"));
  REQUIRE(full);
  CHECK(*full == Entry{hash, "m/g/v/K/<n>"});
  auto extra = DecodeEntry("{\"contentHash\":\"" + hash + "\",\"other\":1}");
  REQUIRE(extra);
  CHECK(extra->content_hash == hash);
  auto unconfirmed = DecodeEntry("{\"contentHash\":\"\"}");  // written before an apply is confirmed
  REQUIRE(unconfirmed);
  CHECK(unconfirmed->content_hash.empty());
}

TEST_CASE("state key: malformed entry values are input errors") {
  const std::pair<const char*, const char*> cases[] = {
      {"not json", "invalid state entry \"not json\": not valid JSON"},
      {"[]", "invalid state entry \"[]\": not a JSON object"},
      {"{}", "invalid state entry \"{}\": missing string \"contentHash\""},
      {"{\"contentHash\":1}", "invalid state entry \"{\\\"contentHash\\\":1}\": missing string \"contentHash\""},
      {"{\"contentHash\":\"h\",\"key\":2}",
       "invalid state entry \"{\\\"contentHash\\\":\\\"h\\\",\\\"key\\\":2}\": \"key\" is not a string"},
      {"{\"contentHash\":\"abc\"}",
       "invalid state entry \"{\\\"contentHash\\\":\\\"abc\\\"}\": contentHash \"abc\" is not 64 lowercase hex digits"},
      {"{\"contentHash\":\"" "ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789" "\"}",
       "invalid state entry \"{\\\"contentHash\\\":\\\"" "ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789" "\\\"}\": "
       "contentHash \"" "ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789" "\" is not 64 lowercase hex digits"},
  };
  for (const auto& [in, message] : cases) {
    auto r = DecodeEntry(in);
    REQUIRE_FALSE(r);
    CHECK(r.error().kind == util::ErrorKind::kInput);
    CHECK(r.error().message == message);
  }
  // Found by tests/fuzz (state_configmap): a value with a line break split the one-line message.
  auto multi = DecodeEntry("{\n\"contentHash\": 1}");
  REQUIRE_FALSE(multi);
  CHECK(multi.error().message == "invalid state entry \"{\\n\\\"contentHash\\\": 1}\": missing string \"contentHash\"");
}

}  // namespace
}  // namespace tazuna::state
