// kubectl_complete-tazuna: shell completion for `kubectl tazuna` (kubectl 1.26+ plugin protocol).
#include <iostream>

#include "cli/complete.hpp"
#include "util/environment.hpp"
#include "util/file_reader.hpp"

int main(int argc, char** argv) {
  tazuna::util::DiskFileReader files;
  return tazuna::cli::Complete(std::cout, tazuna::util::Environment::FromProcess(), files,
                               std::vector<std::string>(argv + 1, argv + argc));
}
