// Parsing of one spec.manifests entry and its type-specific blocks.
#include <algorithm>
#include <charconv>

#include "manifest/names.hpp"
#include "manifest/parse.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

using util::Error;
using util::Result;
using util::Status;

Mark KeyMark(const YAML::Node& map, std::string_view key) {
  const std::optional<YAML::Node> node = NodeReader::Find(map, key);
  return node ? MarkOf(*node) : MarkOf(map);
}

Status ParseVarOp(const YAML::Node& node, const std::string& field, const NodeReader& r, HelmfileVar& var) {
  if (Status s = r.CheckMap(node, field, {"key", "vault", "item", "field"}); !s) return s;
  Result<std::string> key = r.String(node, "key", field), vault = r.String(node, "vault", field);
  Result<std::string> item = r.String(node, "item", field), fld = r.String(node, "field", field);
  for (const auto* v : {&key, &vault, &item, &fld}) {
    if (!*v) return v->error();
  }
  var.op_key = key->empty() ? "label" : *key;
  var.op_vault = *vault;
  var.op_item = *item;
  var.op_field = *fld;
  if (var.op_key != "id" && var.op_key != "label") {
    return r.ErrorAt(KeyMark(node, "key"), ChildField(field, "key"), "must be id or label");
  }
  using Named = std::pair<const char*, std::string>;
  for (const auto& [name, value] : {Named{"vault", *vault}, Named{"item", *item}, Named{"field", *fld}}) {
    if (value.empty()) return r.ErrorAt(MarkOf(node), ChildField(field, name), "required");
  }
  return util::Ok();
}

Status CheckVarSource(const YAML::Node& node, const std::string& field, const NodeReader& r,
                      const HelmfileVar& var) {
  const Mark from_mark = KeyMark(node, "from");
  const std::string from_field = ChildField(field, "from");
  if (var.from == "env") {
    if (var.env.empty()) return r.ErrorAt(MarkOf(node), ChildField(field, "env"), "required when from is env");
    return util::Ok();
  }
  if (var.from == "static") {
    const int set = (NodeReader::Find(node, "static") ? 1 : 0) + (NodeReader::Find(node, "staticSlice") ? 1 : 0) +
                    (NodeReader::Find(node, "staticMap") ? 1 : 0);
    if (set != 1) return r.ErrorAt(from_mark, field, "from static needs exactly one of static, staticSlice, staticMap");
    return util::Ok();
  }
  if (var.from == "op") {
    if (!NodeReader::Find(node, "op")) {
      return r.ErrorAt(MarkOf(node), ChildField(field, "op"), "required when from is op");
    }
    return util::Ok();
  }
  if (var.from.empty()) return r.ErrorAt(MarkOf(node), from_field, "required (env, static or op)");
  return r.ErrorAt(from_mark, from_field,
                   util::StrCat("unknown source ", util::Quote(var.from), " (env, static or op)"));
}

Result<HelmfileVar> ParseVar(const YAML::Node& node, const std::string& field, const NodeReader& r) {
  if (Status s = r.CheckMap(node, field, {"from", "env", "static", "staticSlice", "staticMap", "op"}); !s) {
    return s.error();
  }
  HelmfileVar var;
  Result<std::string> from = r.String(node, "from", field), env = r.String(node, "env", field);
  Result<std::string> stat = r.String(node, "static", field);
  Result<std::vector<std::string>> slice = r.StringList(node, "staticSlice", field);
  Result<std::map<std::string, std::string>> smap = r.StringMap(node, "staticMap", field);
  for (const Error* e : {from ? nullptr : &from.error(), env ? nullptr : &env.error(), stat ? nullptr : &stat.error(),
                         slice ? nullptr : &slice.error(), smap ? nullptr : &smap.error()}) {
    if (e) return *e;
  }
  var.from = *from;
  var.env = *env;
  var.static_value = *stat;
  var.static_slice = *slice;
  var.static_map = *smap;
  if (std::optional<YAML::Node> op = NodeReader::Find(node, "op")) {
    if (Status s = ParseVarOp(*op, ChildField(field, "op"), r, var); !s) return s.error();
  }
  if (Status s = CheckVarSource(node, field, r, var); !s) return s.error();
  return var;
}

// `defaultNamespace`: absent or null gives ""; a name the apiserver would refuse mid-sync is an error here.
Result<std::string> DefaultNamespaceField(const YAML::Node& map, const std::string& field, const NodeReader& r) {
  Result<std::string> ns = r.String(map, "defaultNamespace", field);
  if (!ns || ns->empty()) return ns;
  if (const std::optional<std::string> problem = NamespaceProblem(*ns)) {
    return r.ErrorAt(MarkOf(*NodeReader::Find(map, "defaultNamespace")), ChildField(field, "defaultNamespace"),
                     *problem);
  }
  return ns;
}

// A whole number of seconds from 0 to `max`, or nullopt.
std::optional<int> WholeSeconds(const std::string& text, unsigned int max) {
  unsigned int seconds = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec != std::errc() || end != text.data() + text.size() || seconds > max) return std::nullopt;
  return static_cast<int>(seconds);
}

// `wait` and `timeoutSeconds` as the Go tool reads them: a bool and a whole number of seconds (0 or
// absent: 300 s).
Status ParseHelmfileWait(const YAML::Node& map, const std::string& field, const NodeReader& r, HelmfileOptions& out) {
  Result<bool> wait = r.Bool(map, "wait", field);
  if (!wait) return wait.error();
  out.wait = *wait;
  Result<std::string> text = r.String(map, "timeoutSeconds", field);
  if (!text) return text.error();
  if (text->empty()) return util::Ok();
  if (const std::optional<int> seconds = WholeSeconds(*text, 86400 * 365)) {
    if (*seconds > 0) out.timeout_seconds = *seconds;
    return util::Ok();
  }
  return r.ErrorAt(MarkOf(*NodeReader::Find(map, "timeoutSeconds")), ChildField(field, "timeoutSeconds"),
                   util::StrCat("must be a whole number of seconds, not ", util::Quote(*text)));
}

// `statusGraceSeconds` (our addition to the Go tool's fields): how long a sync's wait lets a controller
// take to write the status of this manifest's objects before they count as ready with a warning.
Status ParseStatusGrace(const YAML::Node& node, const std::string& field, const NodeReader& r, Manifest& m) {
  Result<std::string> text = r.String(node, "statusGraceSeconds", field);
  if (!text) return text.error();
  if (text->empty()) return util::Ok();
  if (const std::optional<int> seconds = WholeSeconds(*text, 86400)) {
    m.status_grace_seconds = *seconds;
    return util::Ok();
  }
  return r.ErrorAt(KeyMark(node, "statusGraceSeconds"), ChildField(field, "statusGraceSeconds"),
                   util::StrCat("must be a whole number of seconds up to 86400, not ", util::Quote(*text)));
}

// Why `path` is not a field path as yieldFields writes them (`spec.replicas`, `containers[name=app].image`,
// `containers[*]`, `annotations[example.com/note]`), or "" when it is one.
std::string FieldPathProblem(const std::string& path) {
  if (path.empty()) return "empty";
  if (path.find_first_of(" \t$") != std::string::npos || path.front() == '/') return "write it as spec.replicas";
  std::string segment;
  int depth = 0;
  std::string inside;
  for (const char c : path + ".") {
    if (depth == 0 && c == '.') {
      if (segment.empty()) return "an empty segment (write it as spec.replicas)";
      segment.clear();
      continue;
    }
    if (c == '[') {
      if (depth > 0 || segment.empty()) return "a bracket must follow a field name";
      ++depth, inside.clear();
    } else if (c == ']') {
      if (depth == 0) return "a ] without its [";
      --depth;
      if (inside.empty()) return "empty brackets";
      if (inside.find_first_not_of("0123456789") == std::string::npos) {
        return "list items are named by their keys (containers[name=app]) or any ([*]), not by index";
      }
    } else if (depth > 0) {
      inside += c;
    }
    segment += c;
  }
  return depth > 0 ? "a [ without its ]" : "";
}

// Why `text` is not what a yieldFields rule's `key` takes, or "" when it is.
std::string RuleValueProblem(std::string_view key, const std::string& text) {
  if (text.empty()) return "";
  if (key == "kind" && !(text[0] >= 'A' && text[0] <= 'Z')) return "a kind starts with a capital letter (Deployment)";
  if (key == "group" && text.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-") != std::string::npos) {
    return "an API group without its version (apps, rbac.authorization.k8s.io, core for the core group)";
  }
  return "";
}

// `yieldFields` (ours): rules naming fields other writers may own (YieldRule); each sets at least one criterion.
Status ParseYieldFields(const YAML::Node& node, const std::string& field, const NodeReader& r, Manifest& m) {
  const std::string list_field = ChildField(field, "yieldFields");
  Result<YAML::Node> rules = r.Sequence(node, "yieldFields", field);
  if (!rules) return rules.error();
  for (size_t i = 0; i < rules->size(); ++i) {
    const YAML::Node item = (*rules)[i];
    const std::string at = IndexField(list_field, i);
    if (Status s = r.CheckMap(item, at, {"group", "kind", "name", "namespace", "paths", "managers"}); !s) return s;
    YieldRule rule;
    for (auto [key, out] : {std::pair{"group", &rule.group}, std::pair{"kind", &rule.kind},
                            std::pair{"name", &rule.name}, std::pair{"namespace", &rule.namespace_name}}) {
      Result<std::string> text = r.String(item, key, at);
      if (!text) return text.error();
      if (const std::string why = RuleValueProblem(key, *text); !why.empty()) {
        return r.ErrorAt(KeyMark(item, key), ChildField(at, key), util::StrCat("invalid ", util::Quote(*text), ": ", why));
      }
      *out = *text;
    }
    Result<std::vector<std::string>> paths = r.StringList(item, "paths", at);
    if (!paths) return paths.error();
    Result<std::vector<std::string>> managers = r.StringList(item, "managers", at);
    if (!managers) return managers.error();
    rule.paths = *paths;
    rule.managers = *managers;
    for (const std::string& path : rule.paths) {
      if (const std::string why = FieldPathProblem(path); !why.empty()) {
        return r.ErrorAt(KeyMark(item, "paths"), ChildField(at, "paths"),
                         util::StrCat("invalid field path ", util::Quote(path), ": ", why));
      }
    }
    for (const std::string& manager : rule.managers) {
      if (manager.empty()) return r.ErrorAt(KeyMark(item, "managers"), ChildField(at, "managers"), "an empty manager name");
    }
    if (rule.group.empty() && rule.kind.empty() && rule.name.empty() && rule.namespace_name.empty() &&
        rule.paths.empty() && rule.managers.empty()) {
      return r.ErrorAt(MarkOf(item), at, "needs at least one of group, kind, name, namespace, paths, managers");
    }
    m.yield_fields.push_back(std::move(rule));
  }
  return util::Ok();
}

Result<HelmfileOptions> ParseHelmfile(const YAML::Node& node, const std::string& field, const NodeReader& r) {
  HelmfileOptions out;
  if (node.IsNull()) return out;
  if (Status s = r.CheckMap(node, field, {"vars", "includeCRDs", "defaultNamespace", "extraValueFiles", "wait",
                                          "timeoutSeconds", "kubeVersion"});
      !s) {
    return s.error();
  }
  Result<bool> crds = r.Bool(node, "includeCRDs", field);
  Result<std::string> ns = DefaultNamespaceField(node, field, r), kv = r.String(node, "kubeVersion", field);
  Result<std::vector<std::string>> extra = r.StringList(node, "extraValueFiles", field);
  if (!crds) return crds.error();
  if (!ns) return ns.error();
  if (!kv) return kv.error();
  if (!extra) return extra.error();
  if (Status s = ParseHelmfileWait(node, field, r, out); !s) return s.error();
  out.include_crds = *crds;
  out.default_namespace = *ns;
  out.kube_version = *kv;
  out.extra_value_files = *extra;
  const std::optional<YAML::Node> vars = NodeReader::Find(node, "vars");
  if (!vars || vars->IsNull()) return out;
  const std::string vars_field = ChildField(field, "vars");
  if (Status s = r.CheckAnyMap(*vars, vars_field); !s) return s.error();
  for (auto it = vars->begin(); it != vars->end(); ++it) {
    Result<HelmfileVar> var = ParseVar(it->second, ChildField(vars_field, it->first.Scalar()), r);
    if (!var) return var.error();
    out.vars[it->first.Scalar()] = *var;
  }
  return out;
}

Result<std::string> ParseDefaultNamespaceBlock(const YAML::Node& node, const std::string& field,
                                               const NodeReader& r) {
  if (node.IsNull()) return std::string();
  if (Status s = r.CheckMap(node, field, {"defaultNamespace"}); !s) return s.error();
  return DefaultNamespaceField(node, field, r);
}

Status ParseOrasDelegate(const YAML::Node& node, const std::string& field, const NodeReader& r, OrasOptions& o) {
  if (Status s = r.CheckMap(node, field, {"type", "helmfile", "kustomize"}); !s) return s;
  Result<std::string> type = r.String(node, "type", field);
  if (!type) return type.error();
  o.delegate_type = *type;
  if (o.delegate_type != "kustomize" && o.delegate_type != "helmfile") {
    return r.ErrorAt(KeyMark(node, "type"), ChildField(field, "type"), "must be kustomize or helmfile");
  }
  if (std::optional<YAML::Node> h = NodeReader::Find(node, "helmfile")) {
    Result<HelmfileOptions> parsed = ParseHelmfile(*h, ChildField(field, "helmfile"), r);
    if (!parsed) return parsed.error();
    o.helmfile = *parsed;
  }
  if (std::optional<YAML::Node> k = NodeReader::Find(node, "kustomize")) {
    Result<std::string> ns = ParseDefaultNamespaceBlock(*k, ChildField(field, "kustomize"), r);
    if (!ns) return ns.error();
    o.kustomize.default_namespace = *ns;
  }
  return util::Ok();
}

Result<OrasOptions> ParseOras(const YAML::Node& node, const std::string& field, const NodeReader& r) {
  OrasOptions o;
  if (Status s =
          r.CheckMap(node, field, {"reference", "target", "plainHTTP", "insecureSkipVerify", "auth", "delegate"});
      !s) {
    return s.error();
  }
  if (NodeReader::Find(node, "auth")) {
    return r.ErrorAt(KeyMark(node, "auth"), ChildField(field, "auth"),
                     "not supported; log in with `oras login` (credentials come from its store)");
  }
  Result<std::string> ref = r.String(node, "reference", field), target = r.String(node, "target", field);
  Result<bool> plain = r.Bool(node, "plainHTTP", field), insecure = r.Bool(node, "insecureSkipVerify", field);
  if (!ref) return ref.error();
  if (!target) return target.error();
  if (!plain) return plain.error();
  if (!insecure) return insecure.error();
  o.reference = *ref;
  o.target = *target;
  o.plain_http = *plain;
  o.insecure_skip_verify = *insecure;
  if (o.reference.empty()) return r.ErrorAt(MarkOf(node), ChildField(field, "reference"), "required");
  const std::optional<YAML::Node> delegate = NodeReader::Find(node, "delegate");
  if (!delegate) return r.ErrorAt(MarkOf(node), ChildField(field, "delegate"), "required");
  if (Status s = ParseOrasDelegate(*delegate, ChildField(field, "delegate"), r, o); !s) return s.error();
  return o;
}


Result<std::vector<IncludeRef>> ParseIncludes(const YAML::Node& map, const std::string& field, const NodeReader& r) {
  Result<YAML::Node> seq = r.Sequence(map, "includes", field);
  if (!seq) return seq.error();
  const std::string inc_field = ChildField(field, "includes");
  if (seq->size() == 0) return r.ErrorAt(KeyMark(map, "includes"), inc_field, "must list at least one file");
  for (auto it = map.begin(); it != map.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (key == "includes" || key == "name" || key == "description") continue;
    return r.ErrorAt(MarkOf(it->first), ChildField(field, key),
                     "not allowed in an include entry (it only takes includes, name and description)");
  }
  std::vector<IncludeRef> out;
  for (size_t i = 0; i < seq->size(); ++i) {
    const YAML::Node item = (*seq)[i];
    const std::string item_field = IndexField(inc_field, i);
    if (Status s = r.CheckMap(item, item_field, {"path"}); !s) return s.error();
    Result<std::string> path = r.String(item, "path", item_field);
    if (!path) return path.error();
    if (path->empty()) return r.ErrorAt(MarkOf(item), ChildField(item_field, "path"), "required");
    out.push_back({*path, ChildField(item_field, "path"), KeyMark(item, "path")});
  }
  return out;
}

Status CheckNameTypePath(const YAML::Node& node, const std::string& field, const NodeReader& r,
                         const Manifest& m) {
  if (m.name.empty()) return r.ErrorAt(MarkOf(node), ChildField(field, "name"), "required");
  const Mark name_mark = KeyMark(node, "name");
  if (!HasManifestNameSyntax(m.name)) {
    return r.ErrorAt(name_mark, ChildField(field, "name"),
                     util::StrCat("invalid name ", util::Quote(m.name), " (must match ^[a-zA-Z0-9_-]+$)"));
  }
  if (m.name == "_metadata") {
    return r.ErrorAt(name_mark, ChildField(field, "name"), "\"_metadata\" is reserved for the state record");
  }
  // Checked at load, before any request: the apiserver would reject the ConfigMap only at the first write.
  if (std::optional<std::string> problem = StateConfigMapNameProblem(m.name)) {
    return r.ErrorAt(name_mark, ChildField(field, "name"), *problem);
  }
  const std::string type_field = ChildField(field, "type");
  if (m.type.empty()) return r.ErrorAt(MarkOf(node), type_field, "required");
  if (m.type == "parallel") {
    return r.ErrorAt(KeyMark(node, "type"), type_field, "type parallel was removed; use dependsOn");
  }
  const auto& known = KnownManifestTypes();
  if (std::find(known.begin(), known.end(), m.type) == known.end()) {
    return r.ErrorAt(KeyMark(node, "type"), type_field,
                     util::StrCat("unknown type ", util::Quote(m.type), " (known: ", util::Join(known, ", "), ")"));
  }
  if (m.path.empty() && m.type != "oras") return r.ErrorAt(MarkOf(node), ChildField(field, "path"), "required");
  return util::Ok();
}

Status CheckBlocksMatchType(const YAML::Node& node, const std::string& field, const NodeReader& r,
                            const std::string& type) {
  for (const std::string_view block : {"kustomize", "helmfile", "oras", "manifests", "genesisSecret"}) {
    const std::string owner = block == "genesisSecret" ? "genesissecret" : std::string(block);
    if (owner == type || !NodeReader::Find(node, block)) continue;
    return r.ErrorAt(KeyMark(node, block), ChildField(field, block),
                     util::StrCat("set, but the manifest's type is ", util::Quote(type)));
  }
  return util::Ok();
}

Status ParseTypeBlocks(const YAML::Node& node, const std::string& field, const NodeReader& r, Manifest& m) {
  if (Status s = CheckBlocksMatchType(node, field, r, m.type); !s) return s;
  if (std::optional<YAML::Node> k = NodeReader::Find(node, "kustomize")) {
    Result<std::string> ns = ParseDefaultNamespaceBlock(*k, ChildField(field, "kustomize"), r);
    if (!ns) return ns.error();
    m.kustomize.default_namespace = *ns;
  }
  if (std::optional<YAML::Node> k = NodeReader::Find(node, "manifests")) {
    Result<std::string> ns = ParseDefaultNamespaceBlock(*k, ChildField(field, "manifests"), r);
    if (!ns) return ns.error();
    m.manifests.default_namespace = *ns;
  }
  if (std::optional<YAML::Node> g = NodeReader::Find(node, "genesisSecret"); g && !g->IsNull()) {
    if (Status s = r.CheckMap(*g, ChildField(field, "genesisSecret"), {}); !s) return s;
  }
  if (std::optional<YAML::Node> h = NodeReader::Find(node, "helmfile")) {
    Result<HelmfileOptions> parsed = ParseHelmfile(*h, ChildField(field, "helmfile"), r);
    if (!parsed) return parsed.error();
    m.helmfile = *parsed;
  }
  if (m.type == "oras") {
    const std::optional<YAML::Node> o = NodeReader::Find(node, "oras");
    if (!o) return r.ErrorAt(MarkOf(node), ChildField(field, "oras"), "required for type oras");
    Result<OrasOptions> parsed = ParseOras(*o, ChildField(field, "oras"), r);
    if (!parsed) return parsed.error();
    m.oras = *parsed;
  }
  return util::Ok();
}

Status ParseCommonFields(const YAML::Node& node, const std::string& field, const NodeReader& r, ManifestEntry& e) {
  Manifest& m = e.manifest;
  Result<std::string> name = r.String(node, "name", field), desc = r.String(node, "description", field);
  Result<std::string> type = r.String(node, "type", field), path = r.String(node, "path", field);
  Result<std::vector<std::string>> tags = r.StringList(node, "tags", field);
  Result<std::vector<std::string>> deps = r.StringList(node, "dependsOn", field);
  for (const auto* v : {&name, &desc, &type, &path}) {
    if (!*v) return v->error();
  }
  if (!tags) return tags.error();
  if (!deps) return deps.error();
  m.name = *name;
  m.description = *desc;
  m.type = *type;
  m.path = *path;
  m.tags = *tags;
  m.depends_on = *deps;
  e.name_mark = KeyMark(node, "name");
  if (std::optional<YAML::Node> d = NodeReader::Find(node, "dependsOn"); d && d->IsSequence()) {
    for (size_t i = 0; i < d->size(); ++i) e.depends_on_marks.push_back(MarkOf((*d)[i]));
  }
  return util::Ok();
}

}  // namespace

Result<ManifestEntry> ParseManifestEntry(const YAML::Node& node, const std::string& field, const NodeReader& r) {
  if (Status s = r.CheckMap(node, field, {"name", "description", "type", "path", "tags", "dependsOn", "includes",
                                          "kustomize", "helmfile", "genesisSecret", "oras", "manifests", "tests",
                                          "parallel", "statusGraceSeconds", "yieldFields"});
      !s) {
    return s.error();
  }
  ManifestEntry e;
  e.file = r.file();
  e.field = field;
  e.mark = MarkOf(node);
  e.manifest.source_file = r.file();
  e.manifest.line = e.mark.line;
  if (Status s = ParseCommonFields(node, field, r, e); !s) return s.error();
  if (NodeReader::Find(node, "includes")) {
    Result<std::vector<IncludeRef>> inc = ParseIncludes(node, field, r);
    if (!inc) return inc.error();
    e.includes = *inc;
    return e;
  }
  if (NodeReader::Find(node, "parallel")) {
    return r.ErrorAt(KeyMark(node, "parallel"), ChildField(field, "parallel"), "parallel was removed; use dependsOn");
  }
  if (Status s = CheckNameTypePath(node, field, r, e.manifest); !s) return s.error();
  if (Status s = ParseTypeBlocks(node, field, r, e.manifest); !s) return s.error();
  if (Status s = ParseStatusGrace(node, field, r, e.manifest); !s) return s.error();
  if (Status s = ParseYieldFields(node, field, r, e.manifest); !s) return s.error();
  if (auto w = r.IgnoredKey(node, "tests", field,
                            "is not run by kubectl tazuna (the Go tool runs them after the manifest is applied); "
                            "ignored")) {
    e.warnings.push_back(*w);
  }
  return e;
}

}  // namespace tazuna::manifest
