#pragma once

#include <string>
#include <vector>

#include "manifest/model.hpp"
#include "manifest/yaml_fields.hpp"
#include "util/result.hpp"

namespace tazuna::manifest {

/// One `includes[]` item of a manifest entry.
struct IncludeRef {
  std::string path;   ///< as written (relative to the root file's directory)
  std::string field;  ///< e.g. spec.manifests[3].includes[0].path
  Mark mark;
};

/// A spec.manifests entry with the positions validation needs after include expansion.
struct ManifestEntry {
  Manifest manifest;
  std::string file;   ///< file that declared it
  std::string field;  ///< spec.manifests[i]
  Mark mark;          ///< the entry
  Mark name_mark;
  std::vector<Mark> depends_on_marks;  ///< one per manifest.depends_on item
  std::vector<IncludeRef> includes;    ///< non-empty: an include entry, replaced by the included manifests
  std::vector<std::string> warnings;   ///< keys set but not acted on (TazunaFile::warnings)
};

/// The contents of one tazuna-format file, parsed and checked field by field (no cross-manifest checks).
struct ParsedFile {
  TazunaFile file;  ///< root-level fields; manifests stays empty (see entries); warnings: spec's own
  std::vector<ManifestEntry> entries;
  Mark environments_mark;
  Mark minimum_version_mark;
  Mark spec_mark;
};

/// Parses the (template-substituted) text of `file_name`. Errors are kInput with file, line, column
/// and field.
util::Result<ParsedFile> ParseTazunaText(const std::string& text, const std::string& file_name);

/// Parses one spec.manifests entry (exposed for the include loader and tests).
util::Result<ManifestEntry> ParseManifestEntry(const YAML::Node& node, const std::string& field,
                                               const NodeReader& reader);

}  // namespace tazuna::manifest
