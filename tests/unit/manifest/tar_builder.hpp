#pragma once

// Tar archives built in memory for the tests of ORAS artifacts: ustar entries, the end blocks, gzip.

#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace tazuna::manifest::testing {

// One tar entry: a 512-byte ustar header (octal fields, checksum) and its data padded to a block.
inline std::string Entry(const std::string& name, char type, const std::string& data = "", const std::string& link = "",
                  uint64_t declared = UINT64_MAX) {
  std::string h(512, '\0');
  const std::string short_name = name.substr(0, 100);
  h.replace(0, short_name.size(), short_name);
  std::snprintf(&h[100], 8, "%07o", 0644);
  std::snprintf(&h[108], 8, "%07o", 0);
  std::snprintf(&h[116], 8, "%07o", 0);
  std::snprintf(&h[124], 12, "%011llo", static_cast<unsigned long long>(declared == UINT64_MAX ? data.size() : declared));
  std::snprintf(&h[136], 12, "%011o", 0);
  h[156] = type;
  h.replace(157, link.size(), link);
  h.replace(257, 6, std::string("ustar\0", 6));
  h.replace(263, 2, "00");
  h.replace(148, 8, "        ");
  unsigned sum = 0;
  for (const char c : h) sum += static_cast<unsigned char>(c);
  std::snprintf(&h[148], 8, "%06o", sum);
  h[155] = ' ';
  std::string out = h + data;
  out.append((512 - data.size() % 512) % 512, '\0');
  return out;
}

inline std::string End() { return std::string(1024, '\0'); }

inline std::string Gzip(const std::string& data) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace tazuna::manifest::testing
