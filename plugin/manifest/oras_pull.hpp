#pragma once

// An ORAS artifact pulled as the Go tool pulls it: the reference resolved to a manifest digest (a tag on every
// run), its one tar(.gz) layer fetched through the `oras` CLI (which reads docker's config.json and credential
// helpers), checked against its digest and unpacked by us (ExtractArchive). Everything is cached by digest under
// <cache>/oras: blobs/sha256/HEX (manifests and layers), trees/sha256-HEX (a layer unpacked; renamed into place
// only once whole, so an interrupted pull leaves nothing a later run trusts) and refs/ (the last resolution of
// each tag, for --offline).

#include <string>

#include "manifest/model.hpp"
#include "manifest/render.hpp"
#include "util/result.hpp"

namespace tazuna::manifest {

/// A reference split: `repository` (host[:port]/path) and either a tag or a digest (`sha256:HEX`).
struct OrasReference {
  std::string repository, tag, digest;
};

/// Splits `reference`; kInput when it has no repository, or a digest that is not sha256 with 64 hex digits.
util::Result<OrasReference> ParseOrasReference(const std::string& reference);

/// The one archive layer of an OCI image manifest (JSON text): its digest. kInput when the text is an index or
/// not a manifest, when there is not exactly one layer, when the layer's media type is not an archive's, or when
/// it is larger than `max_bytes`.
util::Result<std::string> ArchiveLayer(const std::string& manifest_json, uint64_t max_bytes);

/// The artifact `o` names, unpacked.
struct PulledArtifact {
  std::string digest;  ///< the manifest's (`sha256:HEX`)
  std::string tree;    ///< the unpacked layer's directory
  std::string path;    ///< tree + oras.target: what the delegate renders
};

/// Pulls (or finds in the cache) the artifact `o.reference` names. ctx.oras_offline: only the cache (a tag by its
/// last resolution); ctx.oras_no_cache: everything fetched and unpacked again. Errors are one line, starting
/// `oras: ` and naming the reference.
util::Result<PulledArtifact> PullArtifact(const OrasOptions& o, RenderContext& ctx);

}  // namespace tazuna::manifest
