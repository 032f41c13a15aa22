// state::ContentHash: 64 lowercase hex digits, the input left as it was, and server-populated fields
// (status, metadata.resourceVersion, uid, ...) never change the hash.
#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "state/store/content_hash.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size) {
  using namespace tazuna;
  const nlohmann::json object = nlohmann::json::parse(data, data + size, nullptr, false);
  if (object.is_discarded()) return 0;
  const nlohmann::json before = object;
  const std::string hash = state::ContentHash(object);
  fuzz::Check(hash.size() == 64 && hash.find_first_not_of("0123456789abcdef") == std::string::npos,
              "a content hash is 64 lowercase hex digits");
  fuzz::Check(object == before, "ContentHash does not modify its input");
  if (!object.is_object()) return 0;
  nlohmann::json served = object;
  served["status"] = {{"phase", "Served"}};
  fuzz::Check(state::ContentHash(served) == hash, "status does not change the hash");
  if (!served.contains("metadata") || !served["metadata"].is_object()) return 0;
  served["metadata"]["resourceVersion"] = "12345";
  served["metadata"]["uid"] = "0a1b";
  served["metadata"]["managedFields"] = nlohmann::json::array({{{"manager", "kubectl"}}});
  fuzz::Check(state::ContentHash(served) == hash, "server-populated fields do not change the hash");
  return 0;
}
