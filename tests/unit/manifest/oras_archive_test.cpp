#include "manifest/oras_archive.hpp"
#include "tar_builder.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tazuna::manifest {
namespace {

namespace fs = std::filesystem;
using testing::End;
using testing::Entry;
using testing::Gzip;

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("tazuna-archive-" + std::to_string(::getpid()) + "-" +
                                              std::to_string(reinterpret_cast<uintptr_t>(this)));
  fs::path root = dir / "root";
  Scratch() { fs::create_directories(root); }
  ~Scratch() { fs::remove_all(dir); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  // Extracts `bytes` (written to a file first); "" when it succeeds, else the error.
  std::string Extract(const std::string& bytes, const ArchiveLimits& limits = {}) {
    const fs::path file = dir / "layer";
    std::ofstream(file, std::ios::binary) << bytes;
    util::Status s = ExtractArchive(file.string(), root.string(), limits);
    return s ? "" : s.error().message;
  }

  std::string Read(const std::string& rel) const {
    std::ifstream in(root / rel);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
};

TEST_CASE("a tar, plain or gzip-compressed, unpacks its files, directories and links inside the root") {
  const std::string tar = Entry("base/", '5') + Entry("base/kustomization.yaml", '0', "resources: [cm.yaml]\n") +
                          Entry("base/cm.yaml", '0', "kind: ConfigMap\n") + Entry("base/link.yaml", '2', "", "cm.yaml") +
                          Entry("./top/hard.yaml", '1', "", "base/cm.yaml") + End();
  for (const bool gzip : {false, true}) {
    CAPTURE(gzip);
    Scratch s;
    CHECK(s.Extract(gzip ? Gzip(tar) : tar) == "");
    CHECK(s.Read("base/kustomization.yaml") == "resources: [cm.yaml]\n");
    CHECK(s.Read("base/link.yaml") == "kind: ConfigMap\n");
    CHECK(fs::is_symlink(s.root / "base/link.yaml"));
    CHECK(s.Read("top/hard.yaml") == "kind: ConfigMap\n");
  }
}

TEST_CASE("long names through pax and GNU headers") {
  const std::string deep = std::string(120, 'd') + "/file.yaml";
  const std::string pax_record = "path=" + deep + "\n";
  const std::string record = std::to_string(pax_record.size() + 4) + " " + pax_record;  // "NNN " + record
  Scratch s;
  CHECK(s.Extract(Entry("PaxHeaders/x", 'x', record) + Entry("ignored", '0', "pax\n") +
                  Entry("././@LongLink", 'L', "gnu/" + deep + std::string(1, '\0')) + Entry("short", '0', "gnu\n") +
                  End()) == "");
  CHECK(s.Read(deep) == "pax\n");
  CHECK(s.Read("gnu/" + deep) == "gnu\n");
}

TEST_CASE("refusals, each naming what it refuses") {
  struct Case {
    std::string what, archive, error;
  };
  const Case cases[] = {
      {"absolute path", Entry("/etc/x", '0', "x"), "entry \"/etc/x\": an absolute path or one with `..`"},
      {"dot-dot", Entry("a/../../x", '0', "x"), "entry \"a/../../x\": an absolute path or one with `..`"},
      {"symlink out", Entry("l", '2', "", "../outside"), "entry \"l\": a symlink to \"../outside\" leaves the artifact"},
      {"absolute symlink", Entry("l", '2', "", "/etc/passwd"), "entry \"l\": a symlink to \"/etc/passwd\" leaves the artifact"},
      {"links that leave together", Entry("s", '2', "", ".") + Entry("t", '2', "", "s/.."),
       "entry \"t\": a symlink to \"s/..\" leaves the artifact through other links"},
      {"hard link out", Entry("h", '1', "", "../x"), "entry \"h\": a hard link to \"../x\" leaves the artifact"},
      {"write through a symlink", Entry("d", '2', "", "sub") + Entry("sub/", '5') + Entry("d/x", '0', "x"),
       "entry \"d/x\": its path goes through a symlink (\"d\")"},
      {"char device", Entry("dev", '3'), "entry \"dev\": a device or FIFO"},
      {"block device", Entry("dev", '4'), "entry \"dev\": a device or FIFO"},
      {"fifo", Entry("p", '6'), "entry \"p\": a device or FIFO"},
      {"not a tar", std::string("apiVersion: v1\nkind: ConfigMap\n") + std::string(600, ' '),
       "the layer is not a tar archive (nor a gzip-compressed one)"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    Scratch s;
    CHECK(s.Extract(c.archive + End()) == c.error);
  }
  SUBCASE("shorter than a header") {
    CHECK(Scratch().Extract("hello") == "the layer is not a tar archive (shorter than a header)");
  }
  SUBCASE("truncated") {
    Scratch s;
    const std::string full = Entry("a", '0', std::string(2000, 'a')) + End();
    CHECK(s.Extract(full.substr(0, 1000)) == "the archive is truncated");
    CHECK(Scratch().Extract(Gzip(full).substr(0, 40)) != "");
  }
  SUBCASE("the end as Go's archive/tar reads it") {
    // no end-of-archive blocks, or one: the archive ends there (its bytes are checked against their digest first)
    Scratch none;
    CHECK(none.Extract(Entry("a", '0', "a")) == "");
    CHECK(none.Read("a") == "a");
    CHECK(Scratch().Extract(Entry("a", '0', "a") + std::string(512, '\0')) == "");
    // a zero block and then anything else is corrupt; data after two is ignored
    CHECK(Scratch().Extract(Entry("a", '0', "a") + std::string(512, '\0') + Entry("b", '0', "b") + End()) ==
          "the archive is corrupt (data after an end-of-archive block)");
    Scratch after;
    CHECK(after.Extract(Entry("a", '0', "a") + End() + Entry("b", '0', "b")) == "");
    CHECK(!fs::exists(after.root / "b"));
    CHECK(Scratch().Extract(Entry("PaxHeaders/a", 'x', "10 path=a\n")) ==
          "the archive is truncated (extended headers without their entry)");
  }
}

// A pax record "LEN key=value\n".
std::string Pax(const std::string& key, const std::string& value) {
  const std::string body = " " + key + "=" + value + "\n";
  size_t len = body.size() + 1;
  while (std::to_string(len).size() + body.size() != len) ++len;
  return std::to_string(len) + body;
}

TEST_CASE("hostile headers: NUL bytes, malformed pax records, header floods, long names") {
  struct Case {
    std::string what, archive, error;
  };
  const Case cases[] = {
      {"a NUL in a pax linkpath (the link would be made to what precedes it)",
       Entry("PaxHeaders/up", 'x', Pax("linkpath", std::string("..\0", 3))) + Entry("up", '2', "", "x"),
       "entry \"up\": a name or link target holding a NUL byte"},
      {"a NUL in a pax path", Entry("PaxHeaders/p", 'x', Pax("path", std::string("a\0b", 3))) + Entry("p", '0', "x"),
       "entry \"a...\": a name or link target holding a NUL byte"},
      {"a pax record shorter than its own length field", Entry("PaxHeaders/h", 'x', std::string(600, '2').replace(1, 1, " ")) +
       Entry("a", '0', "a"), "the archive is corrupt (a malformed pax record)"},
      {"a pax record without its newline", Entry("PaxHeaders/h", 'x', "12 path=abcd") + Entry("a", '0', "a"),
       "the archive is corrupt (a malformed pax record)"},
      {"a pax record without a key", Entry("PaxHeaders/h", 'x', "7 =abc\n") + Entry("a", '0', "a"),
       "the archive is corrupt (a malformed pax record)"},
      {"nine global headers before one entry",
       [] {
         std::string flood;
         for (int i = 0; i < 9; ++i) flood += Entry("g", 'g', Pax("comment", "x"));
         return flood + Entry("a", '0', "a");
       }(),
       "the archive is corrupt (more than 8 extended headers for one entry)"},
      {"a name longer than PATH_MAX", Entry("././@LongLink", 'L', std::string(5000, 'n')) + Entry("n", '0', "x"),
       "entry \"" + std::string(200, 'n') + "...\": a name or link target longer than 4096 bytes"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    Scratch s;
    CHECK(s.Extract(c.archive + End()) == c.error);
  }
}

TEST_CASE("links resolved on disk, with a budget: chains through `.` are refused, not followed for ever") {
  // b names a/a/a/... where a is `.`: lexically inside, but each `a` is a link to follow
  std::string chain;
  for (int i = 0; i < 2000; ++i) chain += "a/";
  chain += "x";
  Scratch s;
  CHECK(s.Extract(Entry("x", '0', "x") + Entry("a", '2', "", ".") + Entry("PaxHeaders/b", 'x', Pax("linkpath", chain)) +
                  Entry("b", '2', "", "placeholder") + End()) ==
        "entry \"b\": a symlink to \"" + chain.substr(0, 200) + "...\" goes through more than 40 links");
  // a few links through `.` are fine, as the kernel follows them
  Scratch ok;
  CHECK(ok.Extract(Entry("x", '0', "x") + Entry("a", '2', "", ".") + Entry("b", '2', "", "a/a/a/x") + End()) == "");
  CHECK(ok.Read("b") == "x");
}

TEST_CASE("directories and links carry no data, whatever size they declare (as Go's archive/tar reads them)") {
  // the bytes a directory entry declares are the next header, here a file: Go and GNU tar both extract it
  Scratch s;
  CHECK(s.Extract(Entry("d/", '5', "", "", 512) + Entry("evil.yaml", '0', "kind: Secret\n") + End()) == "");
  CHECK(s.Read("evil.yaml") == "kind: Secret\n");
  Scratch l;
  CHECK(l.Extract(Entry("x", '0', "x") + Entry("l", '2', "", "x", 512) + Entry("after", '0', "y") + End()) == "");
  CHECK(l.Read("after") == "y");
}

TEST_CASE("the limits: entries and bytes of files, declared or written") {
  ArchiveLimits limits;
  limits.max_entries = 3;
  limits.max_bytes = 100;
  Scratch s;
  CHECK(s.Extract(Entry("a", '0', "a") + Entry("b", '0', "b") + Entry("c/", '5') + End(), limits) == "");
  CHECK(Scratch().Extract(Entry("a", '0') + Entry("b", '0') + Entry("c", '0') + Entry("d", '0') + End(), limits) ==
        "the archive has more than 3 entries");
  CHECK(Scratch().Extract(Entry("a", '0', std::string(60, 'a')) + Entry("b", '0', std::string(60, 'b')) + End(), limits) ==
        "the archive's files are larger than 100 bytes");
  // directories count too: no more than the entries the archive may have, however deep one path goes
  CHECK(Scratch().Extract(Entry("a/b/c/d/file", '0', "x") + End(), limits) == "the archive makes more than 3 directories");
  // a header declaring more than the limit is refused before anything is read
  CHECK(Scratch().Extract(Entry("big", '0', "", "", uint64_t{1} << 40) + End()) ==
        "the archive's files are larger than 1073741824 bytes");
}

TEST_CASE("a later entry of the same name replaces the earlier one, never through a link") {
  Scratch s;
  CHECK(s.Extract(Entry("a", '0', "one") + Entry("a", '0', "two") + End()) == "");
  CHECK(s.Read("a") == "two");
  Scratch t;
  const fs::path outside = t.dir / "outside";
  std::ofstream(outside) << "keep";
  CHECK(t.Extract(Entry("l", '2', "", "x") + Entry("l", '0', "file") + End()) == "");
  CHECK(!fs::is_symlink(t.root / "l"));
  CHECK(t.Read("l") == "file");
}

}  // namespace
}  // namespace tazuna::manifest
