// The text/template engine as tazuna.yaml and its includes are rendered (manifest::RenderTazunaTemplate):
// the input is the template, run with -e "" and -e prod. Differences from Go's text/template are found
// by tests/compat/gotemplate_run.sh; this target looks for crashes, hangs and runaway memory on any input.
#include <string>

#include "fuzz_check.hpp"
#include "manifest/template.hpp"
#include "util/strings.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size) {
  using namespace tazuna;
  const std::string_view text = fuzz::Text(data, size);
  for (const char* env : {"", "prod"}) {
    auto out = manifest::RenderTazunaTemplate(text, "tazuna.yaml", env);
    auto again = manifest::RenderTazunaTemplate(text, "tazuna.yaml", env);
    fuzz::Check(out.has_value() == again.has_value(), "rendering is deterministic");
    if (!out) {
      fuzz::CheckOneLine(out.error());
      fuzz::Check(util::StartsWith(out.error().message, "tazuna.yaml:"), "a template error names the file");
      fuzz::Check(out.error().message == again.error().message, "errors are deterministic");
      continue;
    }
    fuzz::Check(*out == *again, "output is deterministic");
    fuzz::Check(out->size() <= (16u << 20), "output stays within the bound");
  }
  return 0;
}
