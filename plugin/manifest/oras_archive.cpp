// A tar reader (ustar, pax and GNU long names) over a plain or gzip-compressed file, writing only inside the root.
#include "manifest/oras_archive.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

constexpr size_t kBlock = 512;

util::Error Refused(const std::string& what) { return util::MakeError(util::ErrorKind::kInput, what); }

// The archive's bytes, inflated when it starts with gzip's magic number (concatenated members included).
class ArchiveStream {
 public:
  explicit ArchiveStream(int fd) : fd_(fd) {}
  ~ArchiveStream() {
    if (gzip_) inflateEnd(&z_);
  }
  ArchiveStream(const ArchiveStream&) = delete;
  ArchiveStream& operator=(const ArchiveStream&) = delete;

  util::Status Open() {
    if (!Fill()) return Refused("cannot read the archive");
    gzip_ = in_len_ >= 2 && static_cast<unsigned char>(in_[0]) == 0x1f && static_cast<unsigned char>(in_[1]) == 0x8b;
    if (gzip_ && inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) return Refused("cannot start gzip");
    return util::Ok();
  }

  // Reads exactly `n` bytes into `out`; false at the end of the data (or a gzip error, in error()), with
  // `*got` (when given) the bytes there were.
  bool Read(char* out, size_t n, size_t* got = nullptr) {
    size_t total = 0;
    while (total < n) {
      const size_t step = gzip_ ? Inflate(out + total, n - total) : Copy(out + total, n - total);
      if (step == 0) break;
      total += step;
    }
    if (got != nullptr) *got = total;
    return total == n;
  }

  const std::string& error() const { return error_; }

 private:
  bool Fill() {
    if (in_pos_ < in_len_) return true;
    const ssize_t n = ::read(fd_, in_.data(), in_.size());
    if (n <= 0) return false;
    in_len_ = static_cast<size_t>(n);
    in_pos_ = 0;
    return true;
  }

  size_t Copy(char* out, size_t n) {
    if (!Fill()) return 0;
    const size_t take = std::min(n, in_len_ - in_pos_);
    std::memcpy(out, in_.data() + in_pos_, take);
    in_pos_ += take;
    return take;
  }

  size_t Inflate(char* out, size_t n) {
    const auto want = static_cast<uInt>(std::min<size_t>(n, 1 << 20));
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = want;
    while (z_.avail_out == want) {
      if (z_.avail_in == 0) {  // zlib takes what was read: in_pos_ moves past it
        if (!Fill()) break;
        z_.next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
        z_.avail_in = static_cast<uInt>(in_len_ - in_pos_);
        in_pos_ = in_len_;
      }
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        inflateReset(&z_);  // another gzip member may follow
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        error_ = "the archive's gzip data is corrupt";
        break;
      }
    }
    return want - z_.avail_out;
  }

  int fd_;
  bool gzip_ = false;
  z_stream z_{};
  std::array<char, 1 << 16> in_{};
  size_t in_len_ = 0, in_pos_ = 0;
  std::string error_;
};

// A NUL-terminated (or full) header field.
std::string Field(const char* p, size_t n) { return std::string(p, strnlen(p, n)); }

// A numeric header field: octal, or base-256 when its first byte has the high bit set.
bool Number(const char* p, size_t n, uint64_t& out) {
  out = 0;
  if (n > 0 && (static_cast<unsigned char>(p[0]) & 0x80) != 0) {
    if ((static_cast<unsigned char>(p[0]) & 0x40) != 0) return false;  // negative
    for (size_t i = 0; i < n; ++i) {
      const auto byte = static_cast<unsigned char>(i == 0 ? (p[0] & 0x7f) : p[i]);
      if (out > (UINT64_MAX >> 8)) return false;
      out = (out << 8) | byte;
    }
    return true;
  }
  size_t i = 0;
  while (i < n && (p[i] == ' ' || p[i] == '\0')) ++i;
  for (; i < n && p[i] >= '0' && p[i] <= '7'; ++i) {
    if (out > (UINT64_MAX >> 3)) return false;
    out = out * 8 + static_cast<uint64_t>(p[i] - '0');
  }
  for (; i < n; ++i) {
    if (p[i] != ' ' && p[i] != '\0') return false;
  }
  return true;
}

bool ChecksumMatches(const char* h) {
  uint64_t want = 0;
  if (!Number(h + 148, 8, want)) return false;
  uint64_t sum = 0;
  for (size_t i = 0; i < kBlock; ++i) sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(h[i]);
  return sum == want;
}

// `name` as a path inside the root: components, `.` and empty ones dropped; nullopt when absolute or with `..`.
std::optional<std::vector<std::string>> Components(const std::string& name) {
  if (!name.empty() && name.front() == '/') return std::nullopt;
  std::vector<std::string> out;
  for (std::string& part : util::Split(name, '/')) {
    if (part.empty() || part == ".") continue;
    if (part == "..") return std::nullopt;
    out.push_back(std::move(part));
  }
  return out;
}

// Whether a symlink at `link` (components) pointing to `target` stays inside the root, resolved lexically.
bool LinkStaysInside(const std::vector<std::string>& link, const std::string& target) {
  if (target.empty() || target.front() == '/') return false;
  std::vector<std::string> at(link.begin(), link.end() - 1);
  for (const std::string& part : util::Split(target, '/')) {
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (at.empty()) return false;
      at.pop_back();
    } else {
      at.push_back(part);
    }
  }
  return true;
}

// The pax records of an extended header ("LEN key=value\n", LEN counting the whole record); nullopt when one is
// malformed (as Go's archive/tar refuses it). NUL bytes stay in values: the caller refuses names holding one.
std::optional<std::map<std::string, std::string>> PaxRecords(const std::string& data) {
  std::map<std::string, std::string> out;
  size_t pos = 0;
  while (pos < data.size()) {
    if (data[pos] == '\0') break;  // padding after the last record
    const size_t space = data.find(' ', pos);
    if (space == std::string::npos || space == pos || space - pos > 8) return std::nullopt;
    uint64_t len = 0;
    for (size_t i = pos; i < space; ++i) {
      if (data[i] < '0' || data[i] > '9') return std::nullopt;
      len = len * 10 + static_cast<uint64_t>(data[i] - '0');
    }
    // the record holds "LEN ", at least "k=" and its newline, and ends inside the header
    if (len < space - pos + 4 || len > data.size() - pos || data[pos + len - 1] != '\n') return std::nullopt;
    const std::string_view record(data.data() + space + 1, pos + len - space - 2);
    const size_t eq = record.find('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    out[std::string(record.substr(0, eq))] = std::string(record.substr(eq + 1));
    pos += len;
  }
  return out;
}

// A name for messages: at most 200 bytes of it, up to a NUL.
std::string Shown(const std::string& name) {
  std::string shown = name.substr(0, std::min(name.find('\0'), size_t{200}));
  if (shown.size() < name.size()) shown += "...";
  return util::Quote(shown);
}

constexpr size_t kMaxPath = 4096;              // PATH_MAX: longer names and link targets are refused
constexpr int kMaxLinks = 40;                  // links followed resolving one symlink, as the kernel's limit
constexpr size_t kMaxHeadersPerEntry = 8;      // extended headers (x, g, L, K) before one entry
constexpr uint64_t kMaxHeaderBytes = 64 << 20;  // extended headers in all

class Extractor {
 public:
  Extractor(ArchiveStream& in, std::string root, const ArchiveLimits& limits)
      : in_(in), root_(std::move(root)), limits_(limits) {}

  // Entries up to the end, as Go's archive/tar reads them: two zero blocks end the archive, and so does its data
  // ending right before a header or after one zero block; a zero block followed by anything else is corrupt.
  util::Status Run() {
    std::array<char, kBlock> h{};
    const auto zero = [&h] { return std::all_of(h.begin(), h.end(), [](char c) { return c == '\0'; }); };
    bool first = true;
    while (true) {
      size_t got = 0;
      if (!in_.Read(h.data(), kBlock, &got)) {
        if (!in_.error().empty()) return Refused(in_.error());
        if (first) return Refused("the layer is not a tar archive (shorter than a header)");
        if (got != 0) return Refused("the archive is truncated");
        if (meta_run_ > 0) return Refused("the archive is truncated (extended headers without their entry)");
        return CheckSymlinks();
      }
      if (zero()) {
        if (!in_.Read(h.data(), kBlock, &got)) {
          if (!in_.error().empty()) return Refused(in_.error());
          if (got != 0) return Refused("the archive is truncated");
        } else if (!zero()) {
          return Refused("the archive is corrupt (data after an end-of-archive block)");
        }
        if (meta_run_ > 0) return Refused("the archive is truncated (extended headers without their entry)");
        return CheckSymlinks();
      }
      if (!ChecksumMatches(h.data())) {
        return Refused(first ? "the layer is not a tar archive (nor a gzip-compressed one)"
                             : "the archive is corrupt (a header's checksum does not match)");
      }
      first = false;
      if (util::Status s = Entry(h.data()); !s) return s;
    }
  }

 private:
  util::Status Entry(const char* h) {
    uint64_t size = 0;
    if (!Number(h + 124, 12, size)) return Refused("the archive is corrupt (a size that is not a number)");
    const char type = h[156];
    std::string name = Field(h, 100), link = Field(h + 157, 100);
    // the name's prefix field is POSIX ustar's ("ustar\0"); old GNU headers ("ustar  ") keep other fields there
    if (std::memcmp(h + 257, "ustar\0", 6) == 0 && h[345] != '\0') name = Field(h + 345, 155) + "/" + name;
    if (type == 'x' || type == 'g' || type == 'L' || type == 'K') {  // metadata for the next entry
      if (size > (uint64_t{1} << 20)) return Refused("the archive is corrupt (an extended header over 1 MiB)");
      if (++meta_run_ > kMaxHeadersPerEntry) {
        return Refused(util::StrCat("the archive is corrupt (more than ", kMaxHeadersPerEntry, " extended headers for one entry)"));
      }
      meta_bytes_ += size;
      if (meta_bytes_ > kMaxHeaderBytes) return Refused("the archive is corrupt (over 64 MiB of extended headers)");
      std::string data(size, '\0');
      if (!ReadData(data.data(), size)) return Truncated();
      if (type == 'x') {
        std::optional<std::map<std::string, std::string>> records = PaxRecords(data);
        if (!records) return Refused("the archive is corrupt (a malformed pax record)");
        pax_ = std::move(*records);
      }
      if (type == 'L') long_name_ = Field(data.data(), data.size());
      if (type == 'K') long_link_ = Field(data.data(), data.size());
      return util::Ok();
    }
    meta_run_ = 0;
    if (!long_name_.empty()) name = std::exchange(long_name_, "");
    if (!long_link_.empty()) link = std::exchange(long_link_, "");
    if (auto it = pax_.find("path"); it != pax_.end()) name = it->second;
    if (auto it = pax_.find("linkpath"); it != pax_.end()) link = it->second;
    if (auto it = pax_.find("size"); it != pax_.end()) {
      uint64_t pax_size = 0;
      for (const char c : it->second) {
        if (c < '0' || c > '9' || pax_size > (UINT64_MAX - 9) / 10) {
          return Refused("the archive is corrupt (a pax size that is not a number)");
        }
        pax_size = pax_size * 10 + static_cast<uint64_t>(c - '0');
      }
      size = pax_size;
    }
    pax_.clear();
    if (++entries_ > limits_.max_entries) {
      return Refused(util::StrCat("the archive has more than ", limits_.max_entries, " entries"));
    }
    const std::string quoted = Shown(name);
    if (name.find('\0') != std::string::npos || link.find('\0') != std::string::npos) {
      return Refused(util::StrCat("entry ", quoted, ": a name or link target holding a NUL byte"));
    }
    if (name.size() > kMaxPath || link.size() > kMaxPath) {
      return Refused(util::StrCat("entry ", quoted, ": a name or link target longer than ", kMaxPath, " bytes"));
    }
    const std::optional<std::vector<std::string>> parts = Components(name);
    if (!parts) return Refused(util::StrCat("entry ", quoted, ": an absolute path or one with `..`"));
    switch (type) {
      case '0': case '\0': case '7':
        return File(*parts, quoted, size, h);
      // Directories and links carry no data, whatever size they declare (as Go's archive/tar reads them).
      case '5':
        return Directories(*parts, parts->size(), quoted);
      case '2':
        if (!LinkStaysInside(*parts, link)) {  // at once; CheckSymlinks again with the links after it
          return Refused(util::StrCat("entry ", quoted, ": a symlink to ", Shown(link), " leaves the artifact"));
        }
        return Symlink(*parts, quoted, link);
      case '1': {
        const std::optional<std::vector<std::string>> target = Components(link);
        if (!target || target->empty()) {
          return Refused(util::StrCat("entry ", quoted, ": a hard link to ", Shown(link), " leaves the artifact"));
        }
        return HardLink(*parts, quoted, *target);
      }
      case '3': case '4': case '6':
        return Refused(util::StrCat("entry ", quoted, ": a device or FIFO"));
      default:
        return Refused(util::StrCat("entry ", quoted, ": unsupported tar entry type ", util::Quote(std::string(1, type))));
    }
  }

  util::Error Truncated() const {
    return Refused(in_.error().empty() ? "the archive is truncated" : in_.error());
  }

  // Reads `size` bytes of entry data (and its padding) into `out`.
  bool ReadData(char* out, uint64_t size) {
    if (!in_.Read(out, size)) return false;
    return SkipBytes((kBlock - size % kBlock) % kBlock);
  }

  bool SkipBytes(uint64_t n) {
    std::array<char, 1 << 16> buf{};
    while (n > 0) {
      const size_t take = static_cast<size_t>(std::min<uint64_t>(n, buf.size()));
      if (!in_.Read(buf.data(), take)) return false;
      n -= take;
    }
    return true;
  }

  std::string PathOf(const std::vector<std::string>& parts, size_t n) const {
    std::string path = root_;
    for (size_t i = 0; i < n; ++i) path += "/" + parts[i];
    return path;
  }

  // Makes the first `n` components directories; none may be anything else (a symlink above all). A directory
  // stays one (no entry replaces a directory), so those made are remembered and not looked at again; there may
  // be as many as the archive may have entries.
  util::Status Directories(const std::vector<std::string>& parts, size_t n, const std::string& quoted) {
    if (n == 0 || made_.count(PathOf(parts, n)) != 0) return util::Ok();
    std::string path = root_;
    for (size_t i = 0; i < n; ++i) {
      path += "/" + parts[i];
      if (made_.count(path) != 0) continue;
      struct stat st {};
      if (::lstat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) continue;
        return Refused(util::StrCat("entry ", quoted, ": its path goes through ",
                                    S_ISLNK(st.st_mode) ? "a symlink" : "a file", " (", util::Quote(parts[i]), ")"));
      }
      if (made_.size() >= limits_.max_entries) {
        return Refused(util::StrCat("the archive makes more than ", limits_.max_entries, " directories"));
      }
      if (::mkdir(path.c_str(), 0755) != 0) return Refused(util::StrCat("entry ", quoted, ": ", std::strerror(errno)));
      made_.insert(path);
    }
    return util::Ok();
  }

  // Removes what an earlier entry left at `path` (a later entry wins, as tar has it), never a directory.
  util::Status Replace(const std::string& path, const std::string& quoted) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return util::Ok();
    if (S_ISDIR(st.st_mode)) return Refused(util::StrCat("entry ", quoted, ": a directory of the same name precedes it"));
    ::unlink(path.c_str());
    return util::Ok();
  }

  util::Status File(const std::vector<std::string>& parts, const std::string& quoted, uint64_t size, const char* h) {
    if (parts.empty()) return Refused(util::StrCat("entry ", quoted, ": a file without a name"));
    if (size > limits_.max_bytes - std::min(bytes_, limits_.max_bytes)) {
      return Refused(util::StrCat("the archive's files are larger than ", limits_.max_bytes, " bytes"));
    }
    bytes_ += size;
    if (util::Status s = Directories(parts, parts.size() - 1, quoted); !s) return s;
    const std::string path = PathOf(parts, parts.size());
    if (util::Status s = Replace(path, quoted); !s) return s;
    uint64_t mode = 0;
    Number(h + 100, 8, mode);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode & 0111) ? 0755 : 0644);
    if (fd < 0) return Refused(util::StrCat("entry ", quoted, ": ", std::strerror(errno)));
    std::array<char, 1 << 16> buf{};
    uint64_t left = size;
    while (left > 0) {
      const size_t take = static_cast<size_t>(std::min<uint64_t>(left, buf.size()));
      if (!in_.Read(buf.data(), take)) {
        ::close(fd);
        return Truncated();
      }
      if (::write(fd, buf.data(), take) != static_cast<ssize_t>(take)) {
        const int err = errno;
        ::close(fd);
        return Refused(util::StrCat("entry ", quoted, ": cannot write: ", std::strerror(err)));
      }
      left -= take;
    }
    ::close(fd);
    if (!SkipBytes((kBlock - size % kBlock) % kBlock)) return Truncated();
    return util::Ok();
  }

  util::Status Symlink(const std::vector<std::string>& parts, const std::string& quoted, const std::string& target) {
    if (parts.empty()) return Refused(util::StrCat("entry ", quoted, ": a symlink without a name"));
    if (util::Status s = Directories(parts, parts.size() - 1, quoted); !s) return s;
    const std::string path = PathOf(parts, parts.size());
    if (util::Status s = Replace(path, quoted); !s) return s;
    if (::symlink(target.c_str(), path.c_str()) != 0) return Refused(util::StrCat("entry ", quoted, ": ", std::strerror(errno)));
    symlinks_.push_back({parts, target});
    return util::Ok();
  }

  enum class Resolved { kInside, kLeaves, kTooManyLinks };

  // Resolves `target` from the directory `at` through the symlinks the archive made, as they are on disk (a
  // link to `.` followed by `..` leaves the root although each looks inside on its own), following at most
  // kMaxLinks links in all (`links` counts them), as the kernel does for one path.
  Resolved Resolve(std::vector<std::string>& at, const std::string& target, int& links) const {
    if (target.empty() || target.front() == '/') return Resolved::kLeaves;
    for (const std::string& part : util::Split(target, '/')) {
      if (part.empty() || part == ".") continue;
      if (part == "..") {
        if (at.empty()) return Resolved::kLeaves;
        at.pop_back();
        continue;
      }
      at.push_back(part);
      std::array<char, kMaxPath + 1> buf;
      const std::string path = PathOf(at, at.size());
      const ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
      if (n < 0) continue;  // not a link (or not there): a plain component
      at.pop_back();
      if (++links > kMaxLinks) return Resolved::kTooManyLinks;
      if (static_cast<size_t>(n) > kMaxPath) return Resolved::kLeaves;
      if (Resolved r = Resolve(at, std::string(buf.data(), static_cast<size_t>(n)), links); r != Resolved::kInside) return r;
    }
    return Resolved::kInside;
  }

  // Every symlink, now that all are there, resolves inside the root.
  util::Status CheckSymlinks() const {
    for (const auto& [parts, target] : symlinks_) {
      std::vector<std::string> at(parts.begin(), parts.end() - 1);
      int links = 0;
      const Resolved r = Resolve(at, target, links);
      if (r == Resolved::kInside) continue;
      return Refused(util::StrCat("entry ", Shown(util::Join(parts, "/")), ": a symlink to ", Shown(target),
                                  r == Resolved::kLeaves ? " leaves the artifact through other links"
                                                         : util::StrCat(" goes through more than ", kMaxLinks, " links")));
    }
    return util::Ok();
  }

  util::Status HardLink(const std::vector<std::string>& parts, const std::string& quoted,
                        const std::vector<std::string>& target) {
    if (parts.empty()) return Refused(util::StrCat("entry ", quoted, ": a hard link without a name"));
    if (util::Status s = Directories(target, target.size() - 1, quoted); !s) return s;
    const std::string from = PathOf(target, target.size());
    struct stat st {};
    if (::lstat(from.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      return Refused(util::StrCat("entry ", quoted, ": a hard link to something other than an earlier file"));
    }
    if (util::Status s = Directories(parts, parts.size() - 1, quoted); !s) return s;
    const std::string path = PathOf(parts, parts.size());
    if (util::Status s = Replace(path, quoted); !s) return s;
    if (::link(from.c_str(), path.c_str()) != 0) return Refused(util::StrCat("entry ", quoted, ": ", std::strerror(errno)));
    return util::Ok();
  }

  ArchiveStream& in_;
  std::string root_;
  ArchiveLimits limits_;
  std::map<std::string, std::string> pax_;
  std::string long_name_, long_link_;
  std::vector<std::pair<std::vector<std::string>, std::string>> symlinks_;  ///< each with its target
  std::unordered_set<std::string> made_;  ///< directories made, by path
  size_t entries_ = 0;
  size_t meta_run_ = 0;  ///< extended headers since the last entry
  uint64_t bytes_ = 0, meta_bytes_ = 0;
};

}  // namespace

util::Status ExtractArchive(const std::string& archive, const std::string& root, const ArchiveLimits& limits) {
  const int fd = ::open(archive.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Refused(util::StrCat("cannot open ", util::Quote(archive), ": ", std::strerror(errno)));
  ArchiveStream in(fd);
  util::Status s = in.Open();
  if (s) s = Extractor(in, root, limits).Run();
  ::close(fd);
  return s;
}

}  // namespace tazuna::manifest
