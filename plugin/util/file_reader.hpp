#pragma once

#include <string>
#include <vector>

#include "util/result.hpp"

namespace tazuna::util {

/// Reads files (tazuna.yaml, includes, manifests, kubeconfigs); in-memory in unit tests.
struct FileReader {
  virtual ~FileReader() = default;
  /// Whole contents; kNotFound when the file does not exist, kInput when unreadable.
  virtual Result<std::string> ReadFile(const std::string& path) = 0;
  virtual bool Exists(const std::string& path) = 0;
  virtual bool IsDirectory(const std::string& path) = 0;
  /// Regular files under `dir`, recursively, as full paths sorted bytewise.
  virtual Result<std::vector<std::string>> ListFilesRecursive(const std::string& dir) = 0;
  /// Paths matching a glob pattern (glob(3) semantics), sorted.
  virtual Result<std::vector<std::string>> Glob(const std::string& pattern) = 0;
};

/// The real disk.
struct DiskFileReader : FileReader {
  Result<std::string> ReadFile(const std::string& path) override;
  bool Exists(const std::string& path) override;
  bool IsDirectory(const std::string& path) override;
  Result<std::vector<std::string>> ListFilesRecursive(const std::string& dir) override;
  Result<std::vector<std::string>> Glob(const std::string& pattern) override;
};

/// Directory part of a path ("a/b/c.yaml" -> "a/b", "c.yaml" -> ".").
std::string DirName(const std::string& path);
/// Joins `base` and `rel` unless `rel` is absolute.
std::string JoinPath(const std::string& base, const std::string& rel);
/// JoinPath, then `.` and `..` removed lexically, as Go's filepath.Join: the path every Go renderer (kustomize,
/// helm, helmfile, the Go tool) reads for `base` and `rel`, so `link/../x` is `x` even when `link` is a
/// symlink. Readers of renderer inputs use it, so the digest of those inputs (manifest::RealPath) and the
/// render read the same files.
std::string CleanJoin(const std::string& base, const std::string& rel);

}  // namespace tazuna::util
