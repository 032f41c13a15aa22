// The tazuna.yaml loader (manifest::LoadTazunaFile) on an in-memory file reader. The input is the
// root file repo/tazuna.yaml; after a line `#%next-file`, the text is repo/inc/a.yaml, then
// repo/inc/b.yaml, so includes can be reached. A loaded file must select, layer and check contexts.
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "manifest/fakes.hpp"
#include "manifest/manifest.hpp"
#include "util/strings.hpp"

namespace tazuna::fuzz {
namespace {

constexpr std::string_view kSeparator = "\n#%next-file\n";

void CheckLoaded(const manifest::TazunaFile& file) {
  auto all = manifest::SelectManifests(file, {}, {});
  Check(all.has_value() && all->size() == file.manifests.size(), "no filter selects every manifest");
  size_t layered = 0;
  for (const auto& layer : manifest::DependencyLayers(*all)) layered += layer.size();
  Check(layered == all->size(), "dependency layers hold every manifest once");
  for (const auto& m : file.manifests) {
    Check(!m.name.empty() && m.name != "_metadata", "a loaded manifest has a usable name");
  }
  if (auto st = manifest::CheckContext(file, "kind-fuzz"); !st) CheckOneLine(st.error());
}

}  // namespace
}  // namespace tazuna::fuzz

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size) {
  using namespace tazuna;
  std::string_view rest = fuzz::Text(data, size);
  manifest::testing::FakeFileReader files;
  for (const char* path : {"repo/tazuna.yaml", "repo/inc/a.yaml", "repo/inc/b.yaml"}) {
    const size_t cut = std::min(rest.find(fuzz::kSeparator), rest.size());
    files.files[path] = std::string(rest.substr(0, cut));
    rest = rest.substr(std::min(cut + fuzz::kSeparator.size(), rest.size()));
  }
  for (const manifest::LoadOptions& options : {manifest::LoadOptions{"", "1.5.0"}, manifest::LoadOptions{"prod", ""}}) {
    auto file = manifest::LoadTazunaFile("repo/tazuna.yaml", options, files);
    if (!file) {
      fuzz::CheckOneLine(file.error());
      fuzz::Check(util::StartsWith(file.error().message, "repo/"), "a load error names the file");
      continue;
    }
    fuzz::CheckLoaded(*file);
  }
  return 0;
}
