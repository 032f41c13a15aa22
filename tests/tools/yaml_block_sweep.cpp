// Reads every file named on the command line with the fast block reader and with yaml-cpp alone, and
// reports any file where both give documents and they differ (exit 1), and how many files each read.
// Usage: yaml_block_sweep [-v] FILE...   (-v: where the block reader left each file to yaml-cpp)   (tests/compat/yaml_block_sweep.sh runs it over a directory tree)
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "util/yaml_block.hpp"
#include "util/yaml_json.hpp"

int main(int argc, char** argv) {
  using namespace tazuna;
  int fast = 0, fallback = 0, invalid = 0, differ = 0;
  const bool verbose = argc > 1 && std::string(argv[1]) == "-v";
  for (int i = verbose ? 2 : 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    util::YamlOptions options;
    options.source_name = argv[i];
    options.block_reader = false;
    if (!util::ValidateYamlText(text, options)) {
      ++invalid;
      continue;
    }
    size_t left_at = 0;
    const auto block = util::ParseBlockYamlStream(text, options.max_nodes, &left_at);
    if (!block) {
      if (verbose) std::printf("LEFT %s:%zu\n", argv[i], left_at);
      ++fallback;
      continue;
    }
    ++fast;
    const auto slow = util::ParseYamlStream(text, options);
    if (!slow || *slow != *block) {
      ++differ;
      std::printf("DIFFER %s: %s\n", argv[i], slow ? "other documents" : slow.error().message.c_str());
    }
  }
  std::printf("files: %d read by the block reader, %d left to yaml-cpp, %d not YAML text, %d differ\n", fast,
              fallback, invalid, differ);
  return differ == 0 ? 0 : 1;
}
