#pragma once

#include <optional>
#include <string>

#include "manifest/render.hpp"

namespace tazuna::manifest {

/// Renders kept on local disk by input digest (DigestInputs), so an unchanged manifest is read back instead
/// of running its renderer again: `<cache_dir>/render/<digest>.json`, in a directory only the user can write
/// (anything else is not read: another user could plant objects there), files 0600, never followed through a
/// symlink. A render
/// holding a Secret is never stored (its values would sit on disk). A cache file that cannot be read or
/// parsed is a miss; a write that fails is skipped: the cache never fails a command. The cache stays under
/// `max_bytes`: a store that passes it removes the renders used least recently (a read marks a file used)
/// until three quarters are left.
class RenderCache {
 public:
  static constexpr size_t kDefaultMaxBytes = size_t{256} << 20;
  /// `cache_dir`: DefaultCacheDir (the `render/` directory is made on the first store).
  explicit RenderCache(std::string cache_dir, size_t max_bytes = kDefaultMaxBytes)
      : dir_(std::move(cache_dir) + "/render"), max_bytes_(max_bytes) {}
  /// The render stored under `digest`, or nullopt.
  std::optional<RenderedManifest> Load(const std::string& digest) const;
  /// Stores `rendered` under `digest` (written to a temporary file, then renamed into place); false when
  /// it was not stored (a Secret in it, or a write error).
  bool Store(const std::string& digest, const RenderedManifest& rendered) const;
  /// A small record kept with the renders under `name` (letters, digits and `-`; ".txt" is added), with the
  /// same privacy rules, never evicted: what a renderer binary is (ToolStamp), so it is hashed once per change.
  std::optional<std::string> LoadRecord(const std::string& name) const;
  bool StoreRecord(const std::string& name, const std::string& text) const;

 private:
  void Evict() const;
  bool MakeDir() const;  ///< the render directory, made private; false when it is not

  std::string dir_;
  size_t max_bytes_;
};

}  // namespace tazuna::manifest
