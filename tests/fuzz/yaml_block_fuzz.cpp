// The fast block-YAML reader against yaml-cpp: wherever ParseBlockYamlStream gives documents,
// ParseYamlStream without it must give the same documents.
#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "util/yaml_block.hpp"
#include "util/yaml_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size) {
  using namespace tazuna;
  const std::string_view text = fuzz::Text(data, size);
  util::YamlOptions options;
  options.source_name = "fuzz.yaml";
  options.max_nodes = 200'000;
  options.block_reader = false;
  if (!util::ValidateYamlText(text, options)) return 0;
  const auto fast = util::ParseBlockYamlStream(text, options.max_nodes);
  if (!fast) return 0;
  const auto slow = util::ParseYamlStream(text, options);
  fuzz::Check(static_cast<bool>(slow), "yaml-cpp reads what the block reader reads");
  fuzz::Check(*fast == *slow, "the block reader gives yaml-cpp's documents");
  return 0;
}
