#include "util/file_reader.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/strings.hpp"

namespace tazuna::util {

namespace fs = std::filesystem;

Result<std::string> DiskFileReader::ReadFile(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    return MakeError(ErrorKind::kNotFound, StrCat("open ", path, ": no such file or directory"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorKind::kInput, StrCat("open ", path, ": permission denied"));
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

bool DiskFileReader::Exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

bool DiskFileReader::IsDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

Result<std::vector<std::string>> DiskFileReader::ListFilesRecursive(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::follow_directory_symlink, ec), end;
       it != end; it.increment(ec)) {
    if (ec) break;
    if (it->is_regular_file(ec)) out.push_back(it->path().string());
  }
  if (ec) return MakeError(ErrorKind::kInput, StrCat("read directory ", dir, ": ", ec.message()));
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::vector<std::string>> DiskFileReader::Glob(const std::string& pattern) {
  glob_t g{};
  const int rc = ::glob(pattern.c_str(), 0, nullptr, &g);
  std::vector<std::string> out;
  if (rc == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  }
  globfree(&g);
  if (rc != 0 && rc != GLOB_NOMATCH) return MakeError(ErrorKind::kInput, StrCat("glob ", pattern, ": failed"));
  std::sort(out.begin(), out.end());
  return out;
}

std::string DirName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string CleanJoin(const std::string& base, const std::string& rel) {
  std::string out = std::filesystem::path(JoinPath(base, rel)).lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out.empty() ? "." : out;
}

std::string JoinPath(const std::string& base, const std::string& rel) {
  if (rel.empty()) return base;
  if (rel.front() == '/' || base.empty()) return rel;
  std::string r = rel;
  while (StartsWith(r, "./")) r = r.substr(2);
  if (base == ".") return r.empty() ? "." : r;
  return base.back() == '/' ? base + r : base + "/" + r;
}

}  // namespace tazuna::util
