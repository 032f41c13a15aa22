// YAML -> JSON with Kubernetes typing (util::ParseYamlStream), then Go's JSON encoding of the result.
#include <cmath>

#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "util/go_json.hpp"
#include "util/strings.hpp"
#include "util/yaml_json.hpp"

namespace tazuna::fuzz {
namespace {

using nlohmann::json;

bool HasNonFinite(const json& value) {
  if (value.is_number_float()) return !std::isfinite(value.get<double>());
  if (!value.is_structured()) return false;
  for (const auto& item : value) {
    if (HasNonFinite(item)) return true;
  }
  return false;
}

}  // namespace
}  // namespace tazuna::fuzz

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size) {
  using namespace tazuna;
  util::YamlOptions options;
  options.source_name = "fuzz.yaml";
  options.max_nodes = 200'000;  // the bound is what matters; a smaller one keeps alias bombs quick
  auto docs = util::ParseYamlStream(fuzz::Text(data, size), options);
  if (!docs) {
    fuzz::CheckOneLine(docs.error());
    fuzz::Check(docs.error().kind == util::ErrorKind::kInput, "a YAML error is an input error");
    fuzz::Check(util::StartsWith(docs.error().message, "fuzz.yaml"), "a YAML error names the file");
    return 0;
  }
  for (const auto& doc : *docs) {
    fuzz::Check(!fuzz::HasNonFinite(doc), "Kubernetes typing never yields NaN or infinity");
    // The content hash serialises exactly this: it must be JSON that reads back.
    const nlohmann::json back = nlohmann::json::parse(util::GoJsonMarshal(doc), nullptr, false);
    fuzz::Check(!back.is_discarded(), "Go JSON of a typed document is valid JSON");
  }
  return 0;
}
