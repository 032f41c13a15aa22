// Parsing of a tazuna-format file's root, spec, environments and providers.
#include "manifest/parse.hpp"

#include <algorithm>
#include <optional>
#include <regex>
#include <string_view>

#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

using util::Result;
using util::Status;

Mark KeyMark(const YAML::Node& map, std::string_view key) {
  const std::optional<YAML::Node> node = NodeReader::Find(map, key);
  return node ? MarkOf(*node) : MarkOf(map);
}

Status CheckMode(const YAML::Node& map, const std::string& field, const NodeReader& r, const std::string& mode) {
  if (mode.empty() || mode == "or" || mode == "and") return util::Ok();
  return r.ErrorAt(KeyMark(map, "context_match_mode"), ChildField(field, "context_match_mode"),
                   util::StrCat("must be or or and, not ", util::Quote(mode)));
}

// Length of the repetition operator at p[i] (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`), or 0.
size_t RepeatLength(std::string_view p, size_t i) {
  if (p[i] == '*' || p[i] == '+' || p[i] == '?') return 1;
  if (p[i] != '{') return 0;
  size_t j = i + 1;
  const size_t digits = j;
  while (j < p.size() && p[j] >= '0' && p[j] <= '9') ++j;
  if (j == digits) return 0;  // `{` not followed by a count is a literal in RE2
  if (j < p.size() && p[j] == ',') {
    ++j;
    while (j < p.size() && p[j] >= '0' && p[j] <= '9') ++j;
  }
  return j < p.size() && p[j] == '}' ? j - i + 1 : 0;
}

// RE2 (Go's regexp) rejects a repetition of a repetition (`a**`, `a+*`, `a{2}+`; a single `?` after one
// makes it non-greedy). std::regex accepts them and then matches in exponential time.
std::optional<std::string> NestedRepetition(std::string_view p) {
  size_t last = std::string_view::npos;  // where the repetition just before the current token starts
  bool lazy = false;                      // that repetition already took its non-greedy `?`
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\') {
      ++i;
      last = std::string_view::npos;
      continue;
    }
    if (p[i] == '[') {  // a class: skip to its `]` (one right after `[` or `[^` is a member)
      size_t j = i + 1;
      if (j < p.size() && p[j] == '^') ++j;
      if (j < p.size() && p[j] == ']') ++j;
      while (j < p.size() && p[j] != ']') j += p[j] == '\\' ? 2 : 1;
      i = std::min(j, p.size());
      last = std::string_view::npos;
      continue;
    }
    const size_t len = RepeatLength(p, i);
    if (len == 0) {
      last = std::string_view::npos;
      continue;
    }
    if (last != std::string_view::npos) {
      if (p[i] == '?' && !lazy) {
        lazy = true;
        continue;
      }
      return std::string(p.substr(last, i + len - last));
    }
    last = i;
    lazy = false;
    i += len - 1;
  }
  return std::nullopt;
}

// Go's regexp syntax is RE2; std::regex's ECMAScript grammar covers the patterns people write for context
// names. A leading (?i) is the one RE2 flag group we translate.
Status CheckPatterns(const YAML::Node& map, const std::string& field, const NodeReader& r,
                     const std::vector<std::string>& patterns) {
  const std::optional<YAML::Node> seq = NodeReader::Find(map, "context_matches");
  for (size_t i = 0; i < patterns.size(); ++i) {
    std::string pattern = patterns[i];
    if (util::StartsWith(pattern, "(?i)")) pattern = pattern.substr(4);
    if (const auto nested = NestedRepetition(pattern)) {
      return r.ErrorAt(MarkOf((*seq)[i]), IndexField(ChildField(field, "context_matches"), i),
                       util::StrCat("invalid regular expression ", util::Quote(patterns[i]),
                                    ": invalid nested repetition operator: `", *nested, "`"));
    }
    try {
      std::regex compiled(pattern, std::regex::ECMAScript);
      (void)compiled;
    } catch (const std::regex_error& e) {
      return r.ErrorAt(MarkOf((*seq)[i]), IndexField(ChildField(field, "context_matches"), i),
                       util::StrCat("invalid regular expression ", util::Quote(patterns[i]), ": ", e.what()));
    }
  }
  return util::Ok();
}

Result<EnvironmentSpec> ParseContextRules(const YAML::Node& map, const std::string& field, const NodeReader& r) {
  EnvironmentSpec spec;
  Result<std::vector<std::string>> matches = r.StringList(map, "context_matches", field);
  if (!matches) return matches.error();
  Result<std::string> mode = r.String(map, "context_match_mode", field);
  if (!mode) return mode.error();
  if (Status s = CheckMode(map, field, r, *mode); !s) return s.error();
  if (Status s = CheckPatterns(map, field, r, *matches); !s) return s.error();
  spec.context_matches = *matches;
  spec.context_match_mode = *mode;
  return spec;
}

Status ParseEnvironments(const YAML::Node& spec, const NodeReader& r, ParsedFile& out) {
  const std::optional<YAML::Node> envs = NodeReader::Find(spec, "environments");
  if (!envs || envs->IsNull()) return util::Ok();
  out.environments_mark = MarkOf(*envs);
  if (Status s = r.CheckAnyMap(*envs, "spec.environments"); !s) return s;
  for (auto it = envs->begin(); it != envs->end(); ++it) {
    const std::string field = ChildField("spec.environments", it->first.Scalar());
    if (it->second.IsNull()) {
      out.file.environments[it->first.Scalar()] = {};
      continue;
    }
    if (Status s = r.CheckMap(it->second, field, {"context_matches", "context_match_mode"}); !s) return s;
    Result<EnvironmentSpec> env = ParseContextRules(it->second, field, r);
    if (!env) return env.error();
    out.file.environments[it->first.Scalar()] = *env;
  }
  return util::Ok();
}

Result<Provider> ParseProvider(const YAML::Node& node, const std::string& field, const NodeReader& r) {
  if (Status s = r.CheckMap(node, field, {"name", "type", "envfile"}); !s) return s.error();
  Provider p;
  Result<std::string> name = r.String(node, "name", field), type = r.String(node, "type", field);
  if (!name) return name.error();
  if (!type) return type.error();
  p.name = *name;
  p.type = *type;
  if (p.name.empty()) return r.ErrorAt(MarkOf(node), ChildField(field, "name"), "required");
  if (p.name == "default-op") {
    return r.ErrorAt(KeyMark(node, "name"), ChildField(field, "name"),
                     "\"default-op\" is reserved for the built-in 1Password provider");
  }
  const std::string type_field = ChildField(field, "type");
  if (p.type == "onepassword") {
    return r.ErrorAt(KeyMark(node, "type"), type_field, "not supported; use the built-in provider \"default-op\"");
  }
  if (p.type != "envfile") {
    return r.ErrorAt(p.type.empty() ? MarkOf(node) : KeyMark(node, "type"), type_field,
                     p.type.empty() ? "required (envfile)"
                                    : util::StrCat("unknown provider type ", util::Quote(p.type), " (envfile)"));
  }
  const std::optional<YAML::Node> envfile = NodeReader::Find(node, "envfile");
  const std::string envfile_field = ChildField(field, "envfile");
  if (!envfile) return r.ErrorAt(MarkOf(node), envfile_field, "required for type envfile");
  if (Status s = r.CheckMap(*envfile, envfile_field, {"path"}); !s) return s.error();
  Result<std::string> path = r.String(*envfile, "path", envfile_field);
  if (!path) return path.error();
  if (path->empty()) return r.ErrorAt(MarkOf(*envfile), ChildField(envfile_field, "path"), "required");
  p.envfile_path = *path;
  return p;
}

Status ParseProviders(const YAML::Node& spec, const NodeReader& r, ParsedFile& out) {
  Result<YAML::Node> seq = r.Sequence(spec, "providers", "spec");
  if (!seq) return seq.error();
  for (size_t i = 0; i < seq->size(); ++i) {
    const std::string field = IndexField("spec.providers", i);
    Result<Provider> p = ParseProvider((*seq)[i], field, r);
    if (!p) return p.error();
    for (const Provider& earlier : out.file.providers) {
      if (earlier.name == p->name) {
        return r.ErrorAt(KeyMark((*seq)[i], "name"), ChildField(field, "name"),
                         util::StrCat("duplicate provider name ", util::Quote(p->name)));
      }
    }
    out.file.providers.push_back(*p);
  }
  return util::Ok();
}

Status ParseManifestList(const YAML::Node& spec, const NodeReader& r, ParsedFile& out) {
  const std::optional<YAML::Node> list = NodeReader::Find(spec, "manifests");
  if (!list) return r.ErrorAt(MarkOf(spec), "spec.manifests", "required");
  Result<YAML::Node> seq = r.Sequence(spec, "manifests", "spec");
  if (!seq) return seq.error();
  for (size_t i = 0; i < seq->size(); ++i) {
    Result<ManifestEntry> e = ParseManifestEntry((*seq)[i], IndexField("spec.manifests", i), r);
    if (!e) return e.error();
    out.entries.push_back(std::move(*e));
  }
  return util::Ok();
}

// Keys of the Go tool's schema we accept, so its files load unchanged, but do not act on: said, not
// silently dropped.
void NoteIgnoredSpecKeys(const YAML::Node& spec, const NodeReader& r, std::vector<std::string>& warnings) {
  if (auto w = r.IgnoredKey(spec, "tests", "spec",
                            "is not run by kubectl tazuna (the Go tool runs them after apply); ignored")) {
    warnings.push_back(*w);
  }
  if (auto w = r.IgnoredKey(spec, "requirements", "spec",
                            "is not checked by kubectl tazuna (the Go tool's legacy requirement checks); ignored")) {
    warnings.push_back(*w);
  }
}

Status ParseSpec(const YAML::Node& spec, const NodeReader& r, ParsedFile& out) {
  if (Status s = r.CheckMap(spec, "spec", {"manifests", "context_matches", "context_match_mode", "environments",
                                           "providers", "minimumSupportedTazunaVersion", "tests", "requirements"});
      !s) {
    return s;
  }
  Result<EnvironmentSpec> rules = ParseContextRules(spec, "spec", r);
  if (!rules) return rules.error();
  out.file.context_matches = rules->context_matches;
  out.file.context_match_mode = rules->context_match_mode.empty() ? "or" : rules->context_match_mode;
  Result<std::string> min = r.String(spec, "minimumSupportedTazunaVersion", "spec");
  if (!min) return min.error();
  out.file.minimum_version = *min;
  out.minimum_version_mark = KeyMark(spec, "minimumSupportedTazunaVersion");
  NoteIgnoredSpecKeys(spec, r, out.file.warnings);
  if (Status s = ParseEnvironments(spec, r, out); !s) return s;
  if (Status s = ParseProviders(spec, r, out); !s) return s;
  return ParseManifestList(spec, r, out);
}

Status CheckRootIdentity(const YAML::Node& root, const NodeReader& r) {
  Result<std::string> api = r.String(root, "apiVersion", ""), kind = r.String(root, "kind", "");
  if (!api) return api.error();
  if (!kind) return kind.error();
  if (!api->empty() && *api != "tazuna.pepabo.com/v1") {
    return r.ErrorAt(KeyMark(root, "apiVersion"), "apiVersion",
                     util::StrCat("must be tazuna.pepabo.com/v1, not ", util::Quote(*api)));
  }
  if (!kind->empty() && *kind != "Tazuna") {
    return r.ErrorAt(KeyMark(root, "kind"), "kind", util::StrCat("must be Tazuna, not ", util::Quote(*kind)));
  }
  return util::Ok();
}

}  // namespace

Result<ParsedFile> ParseTazunaText(const std::string& text, const std::string& file_name) {
  const NodeReader r(file_name);
  Result<YAML::Node> root = r.Parse(text);
  if (!root) return root.error();
  if (root->IsNull()) return r.ErrorAt({}, "", "empty file (expected apiVersion, kind and spec)");
  if (Status s = r.CheckMap(*root, "", {"apiVersion", "kind", "metadata", "spec"}); !s) return s.error();
  if (Status s = CheckRootIdentity(*root, r); !s) return s.error();
  const std::optional<YAML::Node> spec = NodeReader::Find(*root, "spec");
  if (!spec || spec->IsNull()) return r.ErrorAt(MarkOf(*root), "spec", "required");
  ParsedFile out;
  out.file.path = file_name;
  out.spec_mark = MarkOf(*spec);
  if (Status s = ParseSpec(*spec, r, out); !s) return s.error();
  return out;
}

}  // namespace tazuna::manifest
