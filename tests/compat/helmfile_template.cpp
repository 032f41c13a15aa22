// Compatibility tool: the C++ twin of tests/compat/helmfiletemplate (`run` mode). Renders every case
// of a case file ("<environment>\0<vars JSON>\0<template>\0" records) as a helmfile.yaml.gotmpl is
// rendered (manifest::RenderHelmfileTemplate) and prints "ok <bytes>\n<output>\n", "error\n", or
// "undefined <function>\n" when the template calls a function the C++ side does not define.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "manifest/helmfile_template.hpp"

namespace {

// The function a "function \"NAME\" not defined" error names, or "".
std::string UndefinedFunction(const std::string& message) {
  const std::string marker = "function \"";
  const size_t at = message.find(marker);
  if (at == std::string::npos) return "";
  const size_t end = message.find("\" not defined", at + marker.size());
  if (end == std::string::npos) return "";
  return message.substr(at + marker.size(), end - at - marker.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "run") {
    std::cerr << "usage: compat_helmfile_template run CASES\n";
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string data = buf.str();
  const bool verbose = std::getenv("HELMFILE_TEMPLATE_VERBOSE") != nullptr;
  size_t pos = 0, index = 0;
  while (pos < data.size()) {
    const size_t env_end = data.find('\0', pos);
    const size_t vars_end = env_end == std::string::npos ? env_end : data.find('\0', env_end + 1);
    const size_t text_end = vars_end == std::string::npos ? vars_end : data.find('\0', vars_end + 1);
    if (text_end == std::string::npos) {
      std::cerr << argv[2] << ": not a sequence of NUL-terminated environment/vars/template triples\n";
      return 2;
    }
    tazuna::manifest::HelmfileTemplateData template_data;
    template_data.environment_name = data.substr(pos, env_end - pos);
    template_data.values = nlohmann::json::parse(data.substr(env_end + 1, vars_end - env_end - 1));
    const std::string text = data.substr(vars_end + 1, text_end - vars_end - 1);
    pos = text_end + 1;
    auto out = tazuna::manifest::RenderHelmfileTemplate(text, template_data, "helmfile.yaml.gotmpl");
    if (out) {
      std::cout << "ok " << out->size() << "\n" << *out << "\n";
    } else {
      if (verbose) std::cerr << "case " << index << ": " << out.error().message << "\n";
      const std::string function = UndefinedFunction(out.error().message);
      if (function.empty()) {
        std::cout << "error\n";
      } else {
        std::cout << "undefined " << function << "\n";
      }
    }
    ++index;
  }
  return 0;
}
