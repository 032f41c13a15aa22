// Compatibility tool: the C++ twin of tests/compat/gotemplate (`run` mode). Renders every case of a
// case file ("<environment>\0<template>\0" records) as tazuna.yaml is rendered
// (manifest::RenderTazunaTemplate) and prints "ok <bytes>\n<output>\n" or "error\n" per case.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "manifest/template.hpp"

int main(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "run") {
    std::cerr << "usage: compat_gotemplate run CASES\n";
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string data = buf.str();
  const bool verbose = std::getenv("GOTEMPLATE_VERBOSE") != nullptr;
  size_t pos = 0, index = 0;
  while (pos < data.size()) {
    const size_t env_end = data.find('\0', pos);
    const size_t text_end = env_end == std::string::npos ? env_end : data.find('\0', env_end + 1);
    if (text_end == std::string::npos) {
      std::cerr << argv[2] << ": not a sequence of NUL-terminated environment/template pairs\n";
      return 2;
    }
    const std::string env = data.substr(pos, env_end - pos);
    const std::string text = data.substr(env_end + 1, text_end - env_end - 1);
    pos = text_end + 1;
    auto out = tazuna::manifest::RenderTazunaTemplate(text, "tazuna.yaml", env);
    if (out) {
      std::cout << "ok " << out->size() << "\n" << *out << "\n";
    } else {
      if (verbose) std::cerr << "case " << index << ": " << out.error().message << "\n";
      std::cout << "error\n";
    }
    ++index;
  }
  return 0;
}
