#include "manifest/load.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "manifest/parse.hpp"
#include "manifest/template.hpp"
#include "manifest/version.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

using util::Result;
using util::Status;

Result<ParsedFile> ReadAndParse(const std::string& path, const std::string& environment, util::FileReader& files) {
  Result<std::string> text = files.ReadFile(path);
  if (!text) return text.error();
  Result<std::string> rendered = RenderTazunaTemplate(*text, path, environment);
  if (!rendered) return rendered.error();
  return ParseTazunaText(*rendered, path);
}

Status AppendInclude(const IncludeRef& ref, const std::string& root_dir, const LoadOptions& options,
                     util::FileReader& files, std::vector<ManifestEntry>& out) {
  const std::string full = util::JoinPath(root_dir, ref.path);
  Result<ParsedFile> parsed = ReadAndParse(full, options.environment, files);
  if (!parsed) return parsed.error();
  const NodeReader reader(full);
  for (ManifestEntry& entry : parsed->entries) {
    if (!entry.includes.empty()) {
      return reader.ErrorAt(entry.includes.front().mark, ChildField(entry.field, "includes"),
                            "nested includes are not allowed (include files may only list manifests)");
    }
    out.push_back(std::move(entry));
  }
  return util::Ok();
}

Result<std::vector<ManifestEntry>> ExpandIncludes(ParsedFile& root, const std::string& root_dir,
                                                  const LoadOptions& options, util::FileReader& files) {
  std::vector<ManifestEntry> out;
  const NodeReader reader(root.file.path);
  for (ManifestEntry& entry : root.entries) {
    if (entry.includes.empty()) {
      out.push_back(std::move(entry));
      continue;
    }
    for (const IncludeRef& ref : entry.includes) {
      const std::string full = util::JoinPath(root_dir, ref.path);
      if (!files.Exists(full)) {
        return reader.ErrorAt(ref.mark, ref.field, util::StrCat("include file ", util::Quote(full), " not found"));
      }
      if (files.IsDirectory(full)) {  // read as a file, a directory would be an "empty file"
        return reader.ErrorAt(ref.mark, ref.field,
                              util::StrCat("include ", util::Quote(full), " is a directory, not a tazuna file"));
      }
      if (Status s = AppendInclude(ref, root_dir, options, files, out); !s) return s.error();
    }
  }
  return out;
}

Status CheckUniqueNames(const std::vector<ManifestEntry>& entries) {
  std::map<std::string, const ManifestEntry*> first;
  for (const ManifestEntry& e : entries) {
    auto [it, inserted] = first.emplace(e.manifest.name, &e);
    if (inserted) continue;
    const ManifestEntry& prev = *it->second;
    return NodeReader(e.file).ErrorAt(
        e.name_mark, ChildField(e.field, "name"),
        util::StrCat("duplicate manifest name ", util::Quote(e.manifest.name), " (first declared at ", prev.file, ":",
                     prev.name_mark.line, ":", prev.name_mark.col, ")"));
  }
  return util::Ok();
}

Status CheckDependsOnTargets(const std::vector<ManifestEntry>& entries, const std::map<std::string, size_t>& index) {
  for (const ManifestEntry& e : entries) {
    const NodeReader reader(e.file);
    for (size_t i = 0; i < e.manifest.depends_on.size(); ++i) {
      const std::string& dep = e.manifest.depends_on[i];
      const std::string field = IndexField(ChildField(e.field, "dependsOn"), i);
      const Mark mark = i < e.depends_on_marks.size() ? e.depends_on_marks[i] : e.mark;
      if (dep == e.manifest.name) {
        return reader.ErrorAt(mark, field, util::StrCat("manifest ", util::Quote(dep), " depends on itself"));
      }
      if (!index.count(dep)) return reader.ErrorAt(mark, field, util::StrCat("unknown manifest ", util::Quote(dep)));
    }
  }
  return util::Ok();
}

// Depth-first search with three colours; the first back edge found, scanning manifests in declaration
// order, is reported with the whole cycle.
Status CheckNoCycles(const std::vector<ManifestEntry>& entries, const std::map<std::string, size_t>& index) {
  enum class Colour { kWhite, kGrey, kBlack };
  std::vector<Colour> colour(entries.size(), Colour::kWhite);
  std::vector<size_t> stack;
  std::function<Status(size_t)> visit = [&](size_t u) -> Status {
    colour[u] = Colour::kGrey;
    stack.push_back(u);
    const ManifestEntry& e = entries[u];
    for (size_t i = 0; i < e.manifest.depends_on.size(); ++i) {
      const size_t v = index.at(e.manifest.depends_on[i]);
      if (colour[v] == Colour::kBlack) continue;
      if (colour[v] == Colour::kWhite) {
        if (Status s = visit(v); !s) return s;
        continue;
      }
      std::vector<std::string> names;
      for (auto it = std::find(stack.begin(), stack.end(), v); it != stack.end(); ++it) {
        names.push_back(entries[*it].manifest.name);
      }
      names.push_back(entries[v].manifest.name);
      const Mark mark = i < e.depends_on_marks.size() ? e.depends_on_marks[i] : e.mark;
      return NodeReader(e.file).ErrorAt(mark, IndexField(ChildField(e.field, "dependsOn"), i),
                                        util::StrCat("dependency cycle: ", util::Join(names, " -> ")));
    }
    stack.pop_back();
    colour[u] = Colour::kBlack;
    return util::Ok();
  };
  for (size_t u = 0; u < entries.size(); ++u) {
    if (colour[u] != Colour::kWhite) continue;
    if (Status s = visit(u); !s) return s;
  }
  return util::Ok();
}

Status CheckEnvironment(const ParsedFile& parsed, const std::string& environment) {
  const auto& envs = parsed.file.environments;
  if (environment.empty() || envs.empty() || envs.count(environment)) return util::Ok();
  std::vector<std::string> declared;
  for (const auto& [name, spec] : envs) declared.push_back(name);
  return NodeReader(parsed.file.path)
      .ErrorAt(parsed.environments_mark, "spec.environments",
               util::StrCat("environment ", util::Quote(environment), " (from -e) is not declared (declared: ",
                            util::Join(declared, ", "), ")"));
}

Status CheckMinimumVersion(const ParsedFile& parsed, const std::string& tool_version) {
  const std::string& wanted = parsed.file.minimum_version;
  if (wanted.empty()) return util::Ok();
  const NodeReader reader(parsed.file.path);
  const std::string field = "spec.minimumSupportedTazunaVersion";
  const std::optional<SemVer> min = ParseSemVer(wanted);
  if (!min) {
    return reader.ErrorAt(parsed.minimum_version_mark, field,
                          util::StrCat("invalid version ", util::Quote(wanted),
                                       " (want a semantic version like 1.4.0)"));
  }
  // Like the Go tool, a binary without a release version (a development build) skips the gate.
  const std::optional<SemVer> ours = ParseSemVer(tool_version);
  if (!ours || (ours->major == 0 && ours->minor == 0 && ours->patch == 0)) return util::Ok();
  if (CompareSemVer(*ours, *min) >= 0) return util::Ok();
  return reader.ErrorAt(parsed.minimum_version_mark, field,
                        util::StrCat("this file needs kubectl-tazuna ", wanted, " or newer (running ", tool_version,
                                     ")"));
}

}  // namespace

Result<TazunaFile> LoadTazunaFile(const std::string& path, const LoadOptions& options, util::FileReader& files) {
  Result<ParsedFile> parsed = ReadAndParse(path, options.environment, files);
  if (!parsed) return parsed.error();
  if (Status s = CheckEnvironment(*parsed, options.environment); !s) return s.error();
  if (Status s = CheckMinimumVersion(*parsed, options.tool_version); !s) return s.error();
  const std::string dir = util::DirName(path);
  Result<std::vector<ManifestEntry>> entries = ExpandIncludes(*parsed, dir, options, files);
  if (!entries) return entries.error();
  if (Status s = CheckUniqueNames(*entries); !s) return s.error();
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < entries->size(); ++i) index[(*entries)[i].manifest.name] = i;
  if (Status s = CheckDependsOnTargets(*entries, index); !s) return s.error();
  if (Status s = CheckNoCycles(*entries, index); !s) return s.error();
  TazunaFile file = std::move(parsed->file);
  file.path = path;
  file.dir = dir;
  file.environment = options.environment;
  for (ManifestEntry& e : *entries) {
    file.warnings.insert(file.warnings.end(), e.warnings.begin(), e.warnings.end());
    file.manifests.push_back(std::move(e.manifest));
  }
  return file;
}

}  // namespace tazuna::manifest
