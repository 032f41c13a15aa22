// kubectl_complete-tazuna: shell completion for `kubectl tazuna` (kubectl 1.26+ plugin protocol).
#include <curl/curl.h>

#include <iostream>

#include "cli/complete.hpp"
#include "kube/transport.hpp"
#include "util/clock.hpp"
#include "util/environment.hpp"
#include "util/file_reader.hpp"
#include "util/process.hpp"

int main(int argc, char** argv) {
  curl_global_init(CURL_GLOBAL_DEFAULT);  // -n completes from the cluster
  tazuna::util::SystemClock clock;
  tazuna::util::DiskFileReader files;
  tazuna::util::RealProcessRunner processes;
  tazuna::cli::Context ctx{std::cin,  std::cout, std::cerr, tazuna::util::Environment::FromProcess(),
                           clock,     files,     processes, tazuna::kube::NewCurlTransport};
  const int code = tazuna::cli::Complete(ctx, std::vector<std::string>(argv + 1, argv + argc));
  std::cout.flush();
  curl_global_cleanup();
  return code;
}
