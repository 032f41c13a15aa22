// What a kustomize manifest's render reads, named so that an equal digest means an equal render (DigestInputs).
// An allowlist: every field of every kustomization, and of every plugin configuration one names, must be one
// this walk knows (kustomize v5's types.Kustomization, its TransformerConfig and its builtin plugins), and every
// file such a field can read is followed. Anything else (an unknown field or kind, a KRM function, helm charts,
// a remote) could read what no digest of files covers, so the manifest is rendered every time.
#include <filesystem>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "manifest/digest_files.hpp"
#include "util/strings.hpp"
#include "util/yaml_cpp_guard.hpp"

namespace tazuna::manifest {
namespace {

namespace fs = std::filesystem;

// What a field's value is, and what of it the walk follows.
enum class Kind {
  kScalar,         // a string, number or bool
  kAny,            // free-form (label pairs, selectors, field specs, inline patches): names no file
  kStrings,        // a list of scalars
  kMap,            // a mapping checked against `fields`
  kList,           // a list of mappings, each checked against `fields`
  kPath,           // a file or directory, followed
  kPaths,          // a list of kPath
  kKeyPaths,       // a list of files, each `path` or `key=path` (generator files)
  kEnvFile,        // an env file: followed, and it may take no value from the environment
  kEnvFiles,       // a list of kEnvFile
  kPatchOrPaths,   // a list of patch files or inline patches (kustomize tries the file first)
  kSchemaFile,     // a file whose YAML documents (or the items of a list) are checked against `fields`
  kSchemaFiles,    // a list of kSchemaFile
  kPlugins,        // generators, transformers, validators: plugin configurations, inline or in files
  kRender,         // present: rendered every time, for `why`
};

struct Field {
  std::string_view name;
  Kind kind;
  std::span<const Field> fields = {};
  std::string_view why = {};
};

constexpr std::string_view kHelm = "inflates helm charts (fetched)";

// The schemas, from kustomize's api/types (JSON names; Go matches them case-insensitively, we exactly).
constexpr Field kGeneratorOptions[] = {
    {"labels", Kind::kAny}, {"annotations", Kind::kAny}, {"disableNameSuffixHash", Kind::kScalar},
    {"immutable", Kind::kScalar}};
// GeneratorArgs with KvPairSources inline; kvSources are kustomize v3's key-value plugins.
constexpr Field kConfigMapArgs[] = {
    {"name", Kind::kScalar}, {"namespace", Kind::kScalar}, {"behavior", Kind::kScalar}, {"literals", Kind::kStrings},
    {"files", Kind::kKeyPaths}, {"envs", Kind::kEnvFiles}, {"env", Kind::kEnvFile},
    {"options", Kind::kMap, kGeneratorOptions}, {"kvSources", Kind::kRender, {}, "runs key-value plugins"}};
constexpr Field kSecretArgs[] = {
    {"name", Kind::kScalar}, {"namespace", Kind::kScalar}, {"behavior", Kind::kScalar}, {"literals", Kind::kStrings},
    {"files", Kind::kKeyPaths}, {"envs", Kind::kEnvFiles}, {"env", Kind::kEnvFile},
    {"options", Kind::kMap, kGeneratorOptions}, {"kvSources", Kind::kRender, {}, "runs key-value plugins"},
    {"type", Kind::kScalar}};
constexpr Field kLabel[] = {
    {"pairs", Kind::kAny}, {"includeSelectors", Kind::kScalar}, {"includeTemplates", Kind::kScalar},
    {"includeVolumeClaimTemplates", Kind::kScalar}, {"fields", Kind::kAny}};
constexpr Field kImage[] = {
    {"name", Kind::kScalar}, {"newName", Kind::kScalar}, {"tagSuffix", Kind::kScalar}, {"newTag", Kind::kScalar},
    {"digest", Kind::kScalar}};
constexpr Field kReplica[] = {{"name", Kind::kScalar}, {"count", Kind::kScalar}};
constexpr Field kPatchArgs[] = {{"allowNameChange", Kind::kScalar}, {"allowKindChange", Kind::kScalar}};
constexpr Field kPatch[] = {
    {"path", Kind::kPath}, {"patch", Kind::kAny}, {"target", Kind::kAny}, {"options", Kind::kMap, kPatchArgs}};
constexpr Field kTargetSelector[] = {
    {"select", Kind::kAny}, {"reject", Kind::kAny}, {"fieldPaths", Kind::kStrings}, {"options", Kind::kAny}};
constexpr Field kReplacement[] = {
    {"source", Kind::kAny}, {"targets", Kind::kList, kTargetSelector}, {"sourceValue", Kind::kScalar}};
// A replacement in place, or a file of one or a list of them (ReplacementField).
constexpr Field kReplacementField[] = {
    {"path", Kind::kSchemaFile, kReplacement}, {"source", Kind::kAny}, {"targets", Kind::kList, kTargetSelector},
    {"sourceValue", Kind::kScalar}};
constexpr Field kVar[] = {{"name", Kind::kScalar}, {"objref", Kind::kAny}, {"fieldref", Kind::kAny}};
constexpr Field kLegacySortOptions[] = {{"orderFirst", Kind::kStrings}, {"orderLast", Kind::kStrings}};
constexpr Field kSortOptions[] = {{"order", Kind::kScalar}, {"legacySortOptions", Kind::kMap, kLegacySortOptions}};
constexpr Field kOpenApi[] = {{"path", Kind::kPath}, {"version", Kind::kScalar}};
// builtinconfig.TransformerConfig: field specs, read strictly by kustomize.
constexpr Field kTransformerConfig[] = {
    {"namePrefix", Kind::kAny}, {"nameSuffix", Kind::kAny}, {"namespace", Kind::kAny}, {"commonLabels", Kind::kAny},
    {"labels", Kind::kAny}, {"templateLabels", Kind::kAny}, {"volumeClaimTemplateLabels", Kind::kAny},
    {"commonAnnotations", Kind::kAny}, {"nameReference", Kind::kAny}, {"varReference", Kind::kAny},
    {"images", Kind::kAny}, {"replicas", Kind::kAny}};
constexpr Field kKustomization[] = {
    {"apiVersion", Kind::kScalar}, {"kind", Kind::kScalar}, {"metadata", Kind::kAny},
    {"openapi", Kind::kMap, kOpenApi}, {"namePrefix", Kind::kScalar}, {"nameSuffix", Kind::kScalar},
    {"namespace", Kind::kScalar}, {"commonLabels", Kind::kAny}, {"labels", Kind::kList, kLabel},
    {"commonAnnotations", Kind::kAny}, {"patchesStrategicMerge", Kind::kPatchOrPaths},
    {"patchesJson6902", Kind::kList, kPatch}, {"patches", Kind::kList, kPatch}, {"images", Kind::kList, kImage},
    {"imageTags", Kind::kList, kImage}, {"replacements", Kind::kList, kReplacementField},
    {"replicas", Kind::kList, kReplica}, {"vars", Kind::kList, kVar}, {"sortOptions", Kind::kMap, kSortOptions},
    {"resources", Kind::kPaths}, {"components", Kind::kPaths}, {"crds", Kind::kPaths}, {"bases", Kind::kPaths},
    {"configMapGenerator", Kind::kList, kConfigMapArgs}, {"secretGenerator", Kind::kList, kSecretArgs},
    {"helmGlobals", Kind::kRender, {}, kHelm}, {"helmCharts", Kind::kRender, {}, kHelm},
    {"helmChartInflationGenerator", Kind::kRender, {}, kHelm}, {"generatorOptions", Kind::kMap, kGeneratorOptions},
    {"configurations", Kind::kSchemaFiles, kTransformerConfig}, {"generators", Kind::kPlugins},
    {"transformers", Kind::kPlugins}, {"validators", Kind::kPlugins}, {"buildMetadata", Kind::kStrings}};

// The builtin plugins' configurations (api/internal/builtins), beside the apiVersion, kind and metadata of
// every one.
constexpr Field kPluginHeader[] = {{"apiVersion", Kind::kScalar}, {"kind", Kind::kScalar}, {"metadata", Kind::kAny}};
constexpr Field kAnnotationsTransformer[] = {{"annotations", Kind::kAny}, {"fieldSpecs", Kind::kAny}};
constexpr Field kLabelTransformer[] = {{"labels", Kind::kAny}, {"fieldSpecs", Kind::kAny}};
constexpr Field kNamespaceTransformer[] = {
    {"fieldSpecs", Kind::kAny}, {"unsetOnly", Kind::kScalar}, {"setRoleBindingSubjects", Kind::kScalar}};
constexpr Field kPatchStrategicMergeTransformer[] = {{"paths", Kind::kPatchOrPaths}, {"patches", Kind::kAny}};
constexpr Field kPatchJson6902Transformer[] = {{"target", Kind::kAny}, {"path", Kind::kPath}, {"jsonOp", Kind::kAny}};
constexpr Field kPrefixTransformer[] = {{"prefix", Kind::kScalar}, {"fieldSpecs", Kind::kAny}};
constexpr Field kSuffixTransformer[] = {{"suffix", Kind::kScalar}, {"fieldSpecs", Kind::kAny}};
constexpr Field kPrefixSuffixTransformer[] = {
    {"prefix", Kind::kScalar}, {"suffix", Kind::kScalar}, {"fieldSpecs", Kind::kAny}};
constexpr Field kImageTagTransformer[] = {{"imageTag", Kind::kMap, kImage}, {"fieldSpecs", Kind::kAny}};
constexpr Field kReplicaCountTransformer[] = {{"replica", Kind::kMap, kReplica}, {"fieldSpecs", Kind::kAny}};
constexpr Field kReplacementTransformer[] = {{"replacements", Kind::kList, kReplacementField}};
constexpr Field kValueAddTarget[] = {
    {"selector", Kind::kAny}, {"fieldPath", Kind::kScalar}, {"filePathPosition", Kind::kScalar}};
constexpr Field kValueAddTargets[] = {{"targets", Kind::kList, kValueAddTarget}};
// Without `value`, the value is the kustomization directory's name, which the digest holds (its files' names).
constexpr Field kValueAddTransformer[] = {
    {"value", Kind::kScalar}, {"targets", Kind::kList, kValueAddTarget},
    {"targetFilePath", Kind::kSchemaFile, kValueAddTargets}};

// The kinds kustomize's builtinhelpers registers as generators and transformers. SortOrderTransformer is not
// among them: kustomize refuses it outside sortOptions.
constexpr Field kBuiltins[] = {
    {"AnnotationsTransformer", Kind::kMap, kAnnotationsTransformer},
    {"ConfigMapGenerator", Kind::kMap, kConfigMapArgs}, {"HashTransformer", Kind::kMap},
    {"ImageTagTransformer", Kind::kMap, kImageTagTransformer}, {"LabelTransformer", Kind::kMap, kLabelTransformer},
    {"NamespaceTransformer", Kind::kMap, kNamespaceTransformer},
    {"PatchJson6902Transformer", Kind::kMap, kPatchJson6902Transformer},
    {"PatchStrategicMergeTransformer", Kind::kMap, kPatchStrategicMergeTransformer},
    {"PatchTransformer", Kind::kMap, kPatch}, {"PrefixSuffixTransformer", Kind::kMap, kPrefixSuffixTransformer},
    {"PrefixTransformer", Kind::kMap, kPrefixTransformer},
    {"ReplacementTransformer", Kind::kMap, kReplacementTransformer},
    {"ReplicaCountTransformer", Kind::kMap, kReplicaCountTransformer}, {"SecretGenerator", Kind::kMap, kSecretArgs},
    {"SuffixTransformer", Kind::kMap, kSuffixTransformer}, {"ValueAddTransformer", Kind::kMap, kValueAddTransformer},
    {"HelmChartInflationGenerator", Kind::kRender, {}, kHelm},
    {"IAMPolicyGenerator", Kind::kRender, {}, "is not read by the digest"}};

const Field* Find(std::span<const Field> fields, std::string_view name) {
  for (const Field& f : fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool IsList(Kind kind) {
  return kind == Kind::kStrings || kind == Kind::kPaths || kind == Kind::kKeyPaths || kind == Kind::kEnvFiles ||
         kind == Kind::kPatchOrPaths || kind == Kind::kSchemaFiles;
}

// A path kustomize would fetch: a URL, a git address, a go-getter or hosted repository.
bool IsRemote(const std::string& value) {
  return value.find("://") != std::string::npos || util::StartsWith(value, "git@") ||
         util::StartsWith(value, "git::") || value.find("ref=") != std::string::npos ||
         value.find("github.com/") != std::string::npos;
}

// The YAML documents of `text`; nullopt with `error` when it does not parse.
std::optional<std::vector<YAML::Node>> Documents(const std::string& text, std::string& error) {
  if (util::FindEndlessDocuments(text)) {
    error = util::kEndlessDocumentsMessage;
    return std::nullopt;
  }
  try {
    return YAML::LoadAll(text);
  } catch (const std::exception& e) {
    error = util::YamlCppMessage(e.what());
    return std::nullopt;
  }
}

// Inline YAML given where a path may stand (a plugin configuration, a patch): a string that parses to at least
// one mapping, as kustomize's NewResMapFromBytes decides.
std::optional<std::vector<YAML::Node>> InlineDocuments(const std::string& value) {
  std::string error;
  auto docs = Documents(value, error);
  if (!docs) return std::nullopt;
  for (const YAML::Node& doc : *docs) {
    if (doc.IsMap()) return docs;
  }
  return std::nullopt;
}

// The string at `key` of the mapping `map`, or "" (yaml-cpp throws on asking an absent key's type).
std::string ScalarAt(const YAML::Node& map, const char* key) {
  const YAML::Node value = map[key];
  return value && value.IsScalar() ? value.Scalar() : "";
}

// The annotation that makes a configuration a KRM function (exec, container, starlark), or "".
std::string FunctionAnnotation(const YAML::Node& doc) {
  const YAML::Node meta = doc["metadata"];
  const YAML::Node annotations = meta && meta.IsMap() ? meta["annotations"] : YAML::Node();
  if (!annotations || !annotations.IsMap()) return "";
  for (const char* key :
       {"config.kubernetes.io/function", "config.k8s.io/function", "config.kubernetes.io/container"}) {
    if (annotations[key]) return key;
  }
  return "";
}

// Where a value stands: the file that holds it (for messages), the kustomization's directory (what its paths
// are relative to, also in plugin configuration files) and the field ("patches[].target").
struct Where {
  std::string file;
  std::string dir;
  std::string field;
};

// The files of one kustomize render, found by following kustomizations from the manifest's directory. Fails
// closed (`reason`) at the first input it cannot account for.
class KustomizeWalk {
 public:
  KustomizeWalk(util::FileReader& files, std::string root) : files_(files), root_(std::move(root)) {}
  void Dir(const std::string& dir);
  const std::set<std::string>& files() const { return found_; }
  const std::string& reason() const { return reason_; }

 private:
  void Kustomization(const std::string& dir, const std::string& path);
  void Map(const YAML::Node& map, std::span<const Field> fields, const Where& at,
           std::span<const Field> also = {});
  void Value(const YAML::Node& value, const Field& field, const Where& at);
  void Path(const std::string& value, const Field& field, const Where& at);
  void SchemaFile(const std::string& path, std::span<const Field> fields, const Where& at);
  void Plugins(const YAML::Node& list, const Where& at);
  void Plugin(const YAML::Node& doc, const Where& at);
  void EnvFile(const std::string& path, const Where& at);
  std::string Resolve(const std::string& value, const Where& at);
  std::optional<std::vector<YAML::Node>> Read(const std::string& path, const Where& at);
  std::string Rel(const std::string& path) const { return fs::path(path).lexically_relative(root_).string(); }
  void Fail(const Where& at, const std::string& what) {
    if (reason_.empty()) reason_ = util::StrCat("kustomize: ", util::Quote(Rel(at.file)), ": ", what);
  }

  util::FileReader& files_;
  std::string root_;
  std::set<std::string> visited_, found_;
  std::string reason_;
};

void KustomizeWalk::Dir(const std::string& dir) {
  if (!reason_.empty() || !visited_.insert(dir).second) return;
  if (!PathInside(dir, root_)) {
    reason_ = util::StrCat("kustomize: ", util::Quote(dir), " is outside the repository ", util::Quote(root_));
    return;
  }
  auto listed = files_.ListFilesRecursive(dir);
  if (!listed) {
    reason_ = "kustomize: " + listed.error().message;
    return;
  }
  for (const std::string& f : *listed) {
    if (f.find("/.git/") == std::string::npos) found_.insert(f);  // git's own files are not read by kustomize
  }
  for (const char* name : {"kustomization.yaml", "kustomization.yml", "Kustomization"}) {
    const std::string k = (fs::path(dir) / name).string();
    if (files_.Exists(k)) Kustomization(dir, k);
  }
}

void KustomizeWalk::Kustomization(const std::string& dir, const std::string& path) {
  const Where at{path, dir, ""};
  const auto docs = Read(path, at);
  std::vector<YAML::Node> present;
  for (const YAML::Node& doc : docs ? *docs : std::vector<YAML::Node>{}) {
    if (!doc.IsNull()) present.push_back(doc);
  }
  if (present.empty()) return;  // kustomize refuses an empty kustomization, and Read says what it could not read
  if (present.size() > 1) return Fail(at, "holds more than one YAML document");
  const YAML::Node& doc = present.front();
  if (!doc.IsMap()) return Fail(at, "is not a mapping");
  const std::string kind = ScalarAt(doc, "kind"), api = ScalarAt(doc, "apiVersion");
  if (kind != "" && kind != "Kustomization" && kind != "Component") {
    return Fail(at, util::StrCat("unknown kind ", util::Quote(kind)));
  }
  if (api != "" && api != "kustomize.config.k8s.io/v1beta1" && api != "kustomize.config.k8s.io/v1alpha1") {
    return Fail(at, util::StrCat("unknown apiVersion ", util::Quote(api)));
  }
  try {
    Map(doc, kKustomization, at);
  } catch (const std::exception& e) {  // yaml-cpp, on a node it cannot read as asked
    Fail(at, "does not parse: " + util::YamlCppMessage(e.what()));
  }
}

// Every key must be one of `fields` (or `also`); each value is checked, and what it names followed.
void KustomizeWalk::Map(const YAML::Node& map, std::span<const Field> fields, const Where& at,
                        std::span<const Field> also) {
  for (const auto& kv : map) {
    if (!reason_.empty()) return;
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    const Where in{at.file, at.dir, at.field.empty() ? key : util::StrCat(at.field, ".", key)};
    const Field* field = Find(fields, key);
    if (!field) field = Find(also, key);
    if (!field) return Fail(in, util::StrCat("unknown field ", util::Quote(in.field)));
    Value(kv.second, *field, in);
  }
}

void KustomizeWalk::Value(const YAML::Node& value, const Field& field, const Where& at) {
  if (value.IsNull() || field.kind == Kind::kAny) return;
  if (field.kind == Kind::kRender) return Fail(at, util::StrCat(util::Quote(at.field), " ", field.why));
  if (field.kind == Kind::kPlugins) return Plugins(value, at);
  if (field.kind == Kind::kMap) {
    if (!value.IsMap()) return Fail(at, util::StrCat(util::Quote(at.field), " is not a mapping"));
    return Map(value, field.fields, at);
  }
  if (field.kind == Kind::kList || IsList(field.kind)) {
    if (!value.IsSequence()) return Fail(at, util::StrCat(util::Quote(at.field), " is not a list"));
    const Where item{at.file, at.dir, at.field + "[]"};
    const Field each{field.name, field.kind == Kind::kList ? Kind::kMap : field.kind, field.fields};
    for (const YAML::Node& v : value) {
      if (each.kind == Kind::kMap) {
        Value(v, each, item);
      } else if (!v.IsScalar()) {
        return Fail(item, util::StrCat(util::Quote(item.field), " holds a value that is not a string"));
      } else {
        Path(v.Scalar(), each, item);
      }
    }
    return;
  }
  if (!value.IsScalar()) return Fail(at, util::StrCat(util::Quote(at.field), " is not a value"));
  if (field.kind != Kind::kScalar) Path(value.Scalar(), field, at);
}

// One string of a path field: its file read (or directory followed), checked as the field says.
void KustomizeWalk::Path(const std::string& value, const Field& field, const Where& at) {
  if (field.kind == Kind::kStrings || !reason_.empty()) return;
  std::string path = value;
  if (field.kind == Kind::kKeyPaths && value.find('=') != std::string::npos) path = value.substr(value.find('=') + 1);
  if (field.kind == Kind::kPatchOrPaths && RealPath(NormalPath((fs::path(at.dir) / path).string())).empty() &&
      InlineDocuments(value)) {
    return;  // an inline patch: in the kustomization's own text
  }
  const std::string target = Resolve(path, at);
  if (target.empty()) return;
  if (field.kind == Kind::kSchemaFile || field.kind == Kind::kSchemaFiles) return SchemaFile(target, field.fields, at);
  if (files_.IsDirectory(target)) return Dir(target);
  found_.insert(target);
  if (field.kind == Kind::kEnvFile || field.kind == Kind::kEnvFiles) EnvFile(target, at);
}

// A file of configuration kustomize parses itself (field specs, replacements, value-add targets): every
// document, or every item of a list, must hold only the fields it knows.
void KustomizeWalk::SchemaFile(const std::string& path, std::span<const Field> fields, const Where& at) {
  if (files_.IsDirectory(path)) return Fail(at, util::StrCat(util::Quote(at.field), " names a directory"));
  found_.insert(path);
  const Where in{path, at.dir, ""};
  const auto docs = Read(path, in);
  const Field each{"", Kind::kMap, fields};
  for (const YAML::Node& doc : docs ? *docs : std::vector<YAML::Node>{}) {
    if (doc.IsSequence()) {
      for (const YAML::Node& item : doc) Value(item, each, in);
    } else {
      Value(doc, each, in);
    }
  }
}

// generators, transformers, validators: each entry inline YAML (kustomize tries that first) or a file of
// configurations. A directory's kustomization would be built and its output used as configurations.
void KustomizeWalk::Plugins(const YAML::Node& list, const Where& at) {
  if (!list.IsSequence()) return Fail(at, util::StrCat(util::Quote(at.field), " is not a list"));
  const Where item{at.file, at.dir, at.field + "[]"};
  for (const YAML::Node& entry : list) {
    if (!entry.IsScalar()) {
      return Fail(item, util::StrCat(util::Quote(item.field), " holds a value that is not a string"));
    }
    if (const auto inline_docs = InlineDocuments(entry.Scalar())) {
      for (const YAML::Node& doc : *inline_docs) Plugin(doc, item);
      continue;
    }
    const std::string target = Resolve(entry.Scalar(), item);
    if (target.empty()) return;
    if (files_.IsDirectory(target)) {
      return Fail(item, util::StrCat(util::Quote(at.field), " names the directory ", util::Quote(entry.Scalar()),
                                     " (a kustomization whose output configures plugins)"));
    }
    found_.insert(target);
    const Where in{target, at.dir, ""};
    const auto docs = Read(target, in);
    for (const YAML::Node& doc : docs ? *docs : std::vector<YAML::Node>{}) Plugin(doc, in);
  }
}

// One plugin configuration: a builtin (apiVersion `builtin`, as kustomize's isBuiltinPlugin) of a kind whose
// fields are known. Any other is an exec, Go or KRM function plugin, which reads what no digest covers.
void KustomizeWalk::Plugin(const YAML::Node& doc, const Where& at) {
  if (doc.IsNull() || !reason_.empty()) return;
  if (!doc.IsMap()) return Fail(at, "holds a plugin configuration that is not a mapping");
  if (const std::string key = FunctionAnnotation(doc); !key.empty()) {
    return Fail(at, util::StrCat("runs a KRM function (annotation ", util::Quote(key), ")"));
  }
  const std::string kind = ScalarAt(doc, "kind"), api = ScalarAt(doc, "apiVersion");
  if (api != "builtin") {
    return Fail(at,
                util::StrCat("plugin ", util::Quote(kind), " of apiVersion ", util::Quote(api), " is not a builtin"));
  }
  const Field* builtin = Find(kBuiltins, kind);
  if (!builtin) return Fail(at, util::StrCat("unknown builtin plugin kind ", util::Quote(kind)));
  const Where in{at.file, at.dir, kind};
  if (builtin->kind == Kind::kRender) return Fail(in, util::StrCat(util::Quote(kind), " ", builtin->why));
  Map(doc, builtin->fields, in, kPluginHeader);
}

// kustomize takes the value of a line that names a variable without one (`IMAGE_TAG`) from the environment,
// which no digest of files covers.
void KustomizeWalk::EnvFile(const std::string& path, const Where& at) {
  auto text = files_.ReadFile(path);
  if (!text) return Fail(at, text.error().message);
  for (const std::string& raw : util::Split(*text, '\n')) {
    const std::string line(util::Trim(raw));
    if (!line.empty() && line[0] != '#' && line.find('=') == std::string::npos) {
      return Fail(at, util::StrCat(util::Quote(Rel(path)), " takes ", util::Quote(line), " from the environment"));
    }
  }
}

// Where `value` really is, as kustomize finds it: joined to the kustomization's directory and cleaned first,
// then symlinks resolved (Go's filepath.Join, then EvalSymlinks), so `vendor/../base` is <dir>/base even when
// vendor is a symlink. RealPath(NormalPath()) spelled out keeps that order whatever RealPath does. "" with the
// reason when it is remote, names nothing or leaves the repository.
std::string KustomizeWalk::Resolve(const std::string& value, const Where& at) {
  if (IsRemote(value)) {
    Fail(at, util::StrCat("remote ", util::Quote(value), " (fetched: its content cannot be checked)"));
    return "";
  }
  const bool usable = !value.empty() && value.find('\n') == std::string::npos;
  const std::string target = usable ? RealPath(NormalPath((fs::path(at.dir) / value).string())) : "";
  if (target.empty()) {
    Fail(at, util::StrCat(util::Quote(value), " names nothing under ", util::Quote(Rel(at.dir))));
  } else if (!PathInside(target, root_)) {
    Fail(at, util::StrCat(util::Quote(value), " leaves the repository ", util::Quote(root_)));
  } else {
    return target;
  }
  return "";
}

std::optional<std::vector<YAML::Node>> KustomizeWalk::Read(const std::string& path, const Where& at) {
  auto text = files_.ReadFile(path);
  if (!text) {
    Fail(at, "cannot be read");
    return std::nullopt;
  }
  std::string error;
  auto docs = Documents(*text, error);
  if (!docs) Fail(at, "does not parse: " + error);
  return docs;
}

}  // namespace

InputDigest DigestKustomize(const Manifest& m, const TazunaFile& file, RenderContext& ctx) {
  std::string reason;
  std::string tool = ToolStamp("kustomize", ctx.env, reason);
  if (tool.empty()) tool = ToolStamp("kubectl", ctx.env, reason);
  if (tool.empty()) return DigestOf("", "kustomize: neither kustomize nor kubectl found on PATH");
  if (!reason.empty()) return DigestOf("", "kustomize: " + reason);
  const std::string dir = RealPath(NormalPath(util::JoinPath(file.dir, m.path)));
  if (dir.empty() || !ctx.files.IsDirectory(dir)) {
    return DigestOf("", util::StrCat("kustomize: ", util::Quote(m.path), " is not a directory"));
  }
  const std::string root = RepositoryRoot(file.dir, ctx.files);
  KustomizeWalk walk(ctx.files, root);
  walk.Dir(dir);
  if (!walk.reason().empty()) return DigestOf("", walk.reason());
  // Files are named relative to the repository, so its own directory's name is not in them, while kustomize can
  // read a kustomization directory's name (ValueAddTransformer without a value).
  std::string text = util::StrCat(DigestHeader(m, ctx), "tool ", tool, "\nroot ",
                                  std::filesystem::path(root).filename().string(), "\n");
  text = WithFiles(std::move(text), walk.files(), root, ctx.files, reason);
  return DigestOf(text, reason);
}

}  // namespace tazuna::manifest
