#pragma once

// A git work tree in a temporary directory for the input digest tests: real files, since the digests read them
// through util::DiskFileReader and resolve symlinks on disk, and a render context over them; removed at the end.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "fakes.hpp"
#include "manifest/render.hpp"
#include "util/file_reader.hpp"

namespace tazuna::manifest::testing {

struct DigestTree {
  std::filesystem::path root = std::filesystem::temp_directory_path() /
                               ("tazuna-digest-" + std::to_string(::getpid()) + "-" +
                                std::to_string(reinterpret_cast<uintptr_t>(this)));
  util::DiskFileReader files;
  FakeProcessRunner processes;
  util::Environment env;
  std::ostringstream log_text;
  util::Logger log{log_text, 0};
  RenderContext ctx{processes, files, env, log, nullptr, std::chrono::seconds(300), ""};
  TazunaFile file;

  DigestTree() { env.Set("PATH", (root / "bin").string()); }
  ~DigestTree() { std::filesystem::remove_all(root); }
  DigestTree(const DigestTree&) = delete;
  DigestTree& operator=(const DigestTree&) = delete;

  /// Writes `text` to `rel` under the root, creating its directories.
  void Write(const std::string& rel, const std::string& text) {
    std::filesystem::create_directories((root / rel).parent_path());
    std::ofstream(root / rel, std::ios::trunc) << text;
  }
  /// An executable `name` on PATH (bin/), a binary by its first bytes.
  void Tool(const std::string& name) {
    Write("bin/" + name, "\x7f" "ELF " + name);
    std::filesystem::permissions(root / "bin" / name, std::filesystem::perms::owner_all);
  }
};

}  // namespace tazuna::manifest::testing
