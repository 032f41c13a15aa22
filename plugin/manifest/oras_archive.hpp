#pragma once

// The one archive layer of an ORAS artifact, unpacked by us (not by `oras pull`) within the Go tool's limits.

#include <cstdint>
#include <string>

#include "util/result.hpp"

namespace tazuna::manifest {

/// The Go tool's limits on an artifact's archive: the bytes of its files, and its entries.
struct ArchiveLimits {
  uint64_t max_bytes = uint64_t{1} << 30;  ///< 1 GiB of file content
  size_t max_entries = 10000;
};

/// Unpacks the tar archive at `archive` (gzip-compressed or not, told by its first bytes) into `root`, an
/// existing empty directory. Refused, as kInput errors naming the entry: an absolute path or one with `..`;
/// a symlink whose target is absolute or leaves `root`, a hard link to a path outside the archive; devices and
/// FIFOs; an entry written through a symlink; a name or link target holding a NUL or longer than PATH_MAX; a
/// symlink resolving through more than 40 links; more than `limits.max_entries` entries or directories or
/// `limits.max_bytes` bytes of files; malformed pax records and floods of extended headers; a truncated or
/// corrupt archive, or one that is not a tar. Read as Go's archive/tar reads it (directories and links carry no
/// data; the end of the data or two zero blocks end it). On an error `root` holds part of the archive: the
/// caller discards it.
util::Status ExtractArchive(const std::string& archive, const std::string& root, const ArchiveLimits& limits = {});

}  // namespace tazuna::manifest
