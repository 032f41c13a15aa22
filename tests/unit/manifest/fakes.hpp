#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "util/file_reader.hpp"
#include "util/process.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest::testing {

/// In-memory files; directories are implied by the paths of the files in them.
struct FakeFileReader : util::FileReader {
  std::map<std::string, std::string> files;
  std::vector<std::string> reads;

  util::Result<std::string> ReadFile(const std::string& path) override {
    reads.push_back(path);
    auto it = files.find(path);
    if (it == files.end()) {
      return util::MakeError(util::ErrorKind::kNotFound, util::StrCat("open ", path, ": no such file or directory"));
    }
    return it->second;
  }
  bool Exists(const std::string& path) override { return files.count(path) > 0 || IsDirectory(path); }
  bool IsDirectory(const std::string& path) override {
    const std::string prefix = path + "/";
    return std::any_of(files.begin(), files.end(), [&](const auto& f) { return util::StartsWith(f.first, prefix); });
  }
  util::Result<std::vector<std::string>> ListFilesRecursive(const std::string& dir) override {
    std::vector<std::string> out;
    for (const auto& [path, text] : files) {
      if (util::StartsWith(path, dir + "/")) out.push_back(path);
    }
    return out;
  }
  /// Supports one '*' in the last path component, enough for the tests.
  util::Result<std::vector<std::string>> Glob(const std::string& pattern) override {
    std::vector<std::string> out;
    const size_t star = pattern.find('*');
    for (const auto& [path, text] : files) {
      if (star == std::string::npos ? path == pattern
                                    : (util::StartsWith(path, pattern.substr(0, star)) &&
                                       util::EndsWith(path, pattern.substr(star + 1)) &&
                                       path.find('/', star) == std::string::npos)) {
        out.push_back(path);
      }
    }
    return out;
  }
};

/// Records every request; answers from `handler` (default: exit 0, empty output).
struct FakeProcessRunner : util::ProcessRunner {
  std::vector<util::ProcessRequest> requests;
  std::function<util::Result<util::ProcessResult>(const util::ProcessRequest&)> handler;

  util::Result<util::ProcessResult> Run(const util::ProcessRequest& request) override {
    requests.push_back(request);
    if (handler) return handler(request);
    return util::ProcessResult{};
  }
  /// The argv of every request, joined with spaces.
  std::vector<std::string> Commands() const {
    std::vector<std::string> out;
    for (const auto& r : requests) out.push_back(util::Join(r.argv, " "));
    return out;
  }
};

inline util::Error ToolMissing(const std::string& tool) {
  return util::MakeError(util::ErrorKind::kToolMissing, util::StrCat("exec: ", util::Quote(tool),
                                                                      ": executable file not found in $PATH"));
}

}  // namespace tazuna::manifest::testing
