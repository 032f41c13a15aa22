#pragma once

// What sprig's hash, encoding and path functions compute: Go's crypto hashes, hash/adler32,
// encoding/base32 and the path package (slash-separated paths, as sprig's base, dir, clean and ext).

#include <cstdint>
#include <optional>
#include <string>

namespace tazuna::manifest::sprig {

/// path.Clean, path.Base, path.Dir and path.Ext.
std::string CleanPath(const std::string& path);
std::string BasePath(const std::string& text);
std::string DirPath(const std::string& path);
std::string ExtPath(const std::string& path);

/// crypto/sha1.Sum and crypto/sha512.Sum512 of `data`, in lower-case hex.
std::string Sha1Hex(const std::string& data);
std::string Sha512Hex(const std::string& data);
/// hash/adler32.Checksum.
uint32_t Adler32(const std::string& data);
/// base32.StdEncoding.EncodeToString.
std::string Base32Encode(const std::string& data);
/// base32.StdEncoding.DecodeString; nullopt (Go's "illegal base32 data at input byte N") on bad input.
std::optional<std::string> Base32Decode(const std::string& text);

}  // namespace tazuna::manifest::sprig
