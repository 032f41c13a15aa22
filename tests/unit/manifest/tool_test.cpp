#include "manifest/tool.hpp"

#include <doctest/doctest.h>

#include <sstream>

#include "fakes.hpp"

namespace tazuna::manifest {
namespace {

TEST_CASE("tool: the values of helm's --set flags never reach a log or an error") {
  struct Case {
    std::string name;
    std::vector<std::string> in, want;
  };
  const std::vector<Case> cases = {
      {"separate values",
       {"helm", "template", "r", "--set", "db.password=hunter2", "--set-string", "a=b", "--set-json", "j={\"k\":1}",
        "--set-literal", "l=x,y", "--set-file", "f=/tmp/key.pem"},
       {"helm", "template", "r", "--set", "db.password=***", "--set-string", "a=***", "--set-json", "j=***",
        "--set-literal", "l=***", "--set-file", "f=***"}},
      {"joined with =",
       {"helm", "--set=db.password=hunter2", "--set-string=x=y=z", "--set-json=noname"},
       {"helm", "--set=db.password=***", "--set-string=x=***", "--set-json=***"}},
      {"a value without a name", {"helm", "--set", "hunter2"}, {"helm", "--set", "***"}},
      {"a value that looks like a flag", {"helm", "--set", "--set", "--values", "-"}, {"helm", "--set", "***", "--values", "-"}},
      {"other flags", {"helm", "--values", "-", "--setting", "a=b", "--set"}, {"helm", "--values", "-", "--setting", "a=b", "--set"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(RedactSetValues(c.in) == c.want);
  }
}

TEST_CASE("tool: RunTool logs and reports helm's command line with --set values masked, and scrubs its stderr") {
  testing::FakeProcessRunner processes;
  processes.handler = [](const util::ProcessRequest&) {
    util::ProcessResult r;
    r.exit_code = 1;
    r.err = "Error: failed parsing --set data: key \"hunter2-pw\" has no value\n";
    return util::Result<util::ProcessResult>(r);
  };
  testing::FakeFileReader files;
  const util::Environment env;
  std::ostringstream err;
  util::Logger log(err, 2);
  RenderContext ctx{processes, files, env, log, nullptr, std::chrono::seconds(300), "/cache"};
  auto out = RunTool({{"helm", "template", "r", "--set", "db.password=hunter2-pw"}, "", "", {}}, ctx);
  REQUIRE_FALSE(out);
  CHECK(out.error().message == "helm template r --set db.password=*** failed (exit status 1)");
  CHECK(out.error().detail_lines == std::vector<std::string>{"Error: failed parsing --set data: key \"***\" has no value"});
  CHECK(err.str().find("hunter2") == std::string::npos);
  CHECK(err.str().find("--set db.password=***") != std::string::npos);
  CHECK(processes.requests.at(0).argv.back() == "db.password=hunter2-pw");  // helm itself gets the value
}

}  // namespace
}  // namespace tazuna::manifest
