// Compatibility tool: the C++ twin of tests/compat/yamlhash/main.go. Splits a YAML file on
// "---" lines as apimachinery's YAMLReader does and prints, per non-null document,
// "<go json>\t<content hash>", or "error" for a document that fails.

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "state/store/content_hash.hpp"
#include "util/go_json.hpp"
#include "util/strings.hpp"
#include "util/yaml_json.hpp"

namespace {

// A separator line starts with "---" and has only spaces or a comment after it.
bool IsSeparator(std::string_view line) {
  if (line.substr(0, 3) != "---") return false;
  const std::string_view rest = tazuna::util::Trim(line.substr(3));
  return rest.empty() || rest[0] == '#';
}

std::vector<std::string> SplitDocuments(std::string_view text) {
  std::vector<std::string> docs(1);
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const size_t len = nl == std::string_view::npos ? text.size() : nl + 1;
    const std::string_view line = text.substr(0, len);
    if (IsSeparator(line)) {
      docs.emplace_back();
    } else {
      docs.back() += line;
    }
    text.remove_prefix(len);
  }
  return docs;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: yamlhash FILE\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "cannot open " << argv[1] << "\n";
    return 2;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const bool verbose = std::getenv("YAMLHASH_VERBOSE") != nullptr;
  const auto docs = SplitDocuments(buffer.str());
  for (size_t i = 0; i < docs.size(); ++i) {
    auto parsed = tazuna::util::ParseYamlDocument(docs[i], {argv[1]});
    if (!parsed) {
      std::cout << "error\n";
      if (verbose) std::cerr << "document " << i << ": " << parsed.error().message << "\n";
      continue;
    }
    if (parsed->is_null()) continue;
    std::cout << tazuna::util::GoJsonMarshal(*parsed) << '\t' << tazuna::state::ContentHash(*parsed) << '\n';
  }
  return 0;
}
