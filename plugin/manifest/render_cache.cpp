#include "manifest/render_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "util/json_get.hpp"
#include "util/secret_mask.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {

namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxCacheFile = 256u << 20;  // far above any render; a bigger file is not ours
constexpr size_t kMaxNesting = 512;

bool HoldsSecret(const RenderedManifest& r) {
  return std::any_of(r.objects.begin(), r.objects.end(), [](const nlohmann::json& o) { return util::IsSecret(o); });
}

bool ValidRecordName(const std::string& name) {
  return !name.empty() && name.size() <= 128 &&
         name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
}

bool ValidDigest(const std::string& digest) {
  return digest.size() == 64 && digest.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// Only a directory of this user that no one else can write is trusted (a shared XDG_CACHE_HOME could
// otherwise hand us another user's objects to apply).
bool Private(const std::string& dir) {
  struct stat st{};
  return ::lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() &&
         (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

// The whole file at `path` (no symlink followed, owned by this user), or nullopt.
std::optional<std::string> ReadPrivate(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st{};
  std::optional<std::string> out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() &&
      static_cast<size_t>(st.st_size) <= kMaxCacheFile) {
    ::futimens(fd, nullptr);  // used now: the last to be evicted
    std::string text(static_cast<size_t>(st.st_size), '\0');
    size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    if (got == text.size()) out = std::move(text);
  }
  ::close(fd);
  return out;
}

// Writes `text` to a new private file in `dir` (mkstemp: 0600 from the start) and renames it to `path`.
bool WritePrivate(const std::string& dir, const std::string& path, const std::string& text) {
  std::string tmp = dir + "/.tmp-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return false;
  size_t put = 0;
  while (put < text.size()) {
    const ssize_t n = ::write(fd, text.data() + put, text.size() - put);
    if (n <= 0) break;
    put += static_cast<size_t>(n);
  }
  const bool written = put == text.size() && ::close(fd) == 0;
  if (!written || ::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace

std::optional<RenderedManifest> RenderCache::Load(const std::string& digest) const {
  if (!ValidDigest(digest) || !Private(dir_)) return std::nullopt;
  const std::optional<std::string> text = ReadPrivate(dir_ + "/" + digest + ".json");
  if (!text || util::NestsDeeperThan(*text, kMaxNesting)) return std::nullopt;
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  const nlohmann::json& objects = util::JsonArray(doc, "objects");
  const nlohmann::json& sources = util::JsonArray(doc, "sources");
  if (sources.size() != objects.size()) return std::nullopt;
  RenderedManifest r;
  r.name = util::JsonString(doc, "name");
  r.default_namespace = util::JsonString(doc, "defaultNamespace");
  r.always_sync = util::JsonBool(doc, "alwaysSync");
  for (size_t i = 0; i < objects.size(); ++i) {
    if (!objects[i].is_object() || !sources[i].is_string()) return std::nullopt;
    r.objects.push_back(objects[i]);
    r.sources.push_back(sources[i].get<std::string>());
  }
  return r;
}

std::optional<std::string> RenderCache::LoadRecord(const std::string& name) const {
  if (!ValidRecordName(name) || !Private(dir_)) return std::nullopt;
  return ReadPrivate(dir_ + "/" + name + ".txt");
}

bool RenderCache::StoreRecord(const std::string& name, const std::string& text) const {
  return ValidRecordName(name) && MakeDir() && WritePrivate(dir_, dir_ + "/" + name + ".txt", text);
}

bool RenderCache::MakeDir() const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  ::chmod(dir_.c_str(), 0700);
  return Private(dir_);
}

bool RenderCache::Store(const std::string& digest, const RenderedManifest& rendered) const {
  if (!ValidDigest(digest) || HoldsSecret(rendered) || rendered.sources.size() != rendered.objects.size()) return false;
  if (!MakeDir()) return false;
  std::string text;
  try {  // a file name that is not UTF-8 cannot be JSON: that render is just not kept
    text = nlohmann::json{{"name", rendered.name},
                          {"defaultNamespace", rendered.default_namespace},
                          {"alwaysSync", rendered.always_sync},
                          {"objects", rendered.objects},
                          {"sources", rendered.sources}}
               .dump();
  } catch (const nlohmann::json::exception&) {
    return false;
  }
  if (!WritePrivate(dir_, dir_ + "/" + digest + ".json", text)) return false;
  Evict();
  return true;
}

void RenderCache::Evict() const {
  struct Entry {
    fs::file_time_type used;
    uintmax_t size;
    fs::path path;
  };
  std::vector<Entry> entries;
  uintmax_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    std::error_code item;
    if (!e.is_regular_file(item) || e.path().extension() != ".json") continue;
    const uintmax_t size = e.file_size(item);
    const fs::file_time_type used = e.last_write_time(item);
    if (item) continue;
    entries.push_back({used, size, e.path()});
    total += size;
  }
  if (total <= max_bytes_) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (total <= max_bytes_ / 4 * 3) break;
    if (fs::remove(e.path, ec)) total -= e.size;  // another process may have removed it first
  }
}

}  // namespace tazuna::manifest
