// An allowlist, not a list of known dangers: a function nobody thought of, a call a pattern does not see (an
// action holding "}") or text tpl renders from values fails closed, as a render the digest does not skip.
#include "manifest/chart_functions.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <set>
#include <string_view>

#include "manifest/gotemplate/parse.hpp"
#include "util/strings.hpp"
#include "util/yaml_json.hpp"

namespace tazuna::manifest {
namespace {

using gotemplate::Node;
using gotemplate::NodeType;
using nlohmann::json;

// Functions helm defines whose result depends on their arguments alone (and on what the digest records: the helm
// binary, the capabilities): Go's builtins but `call` (text/template/funcs.go); sprig's TxtFuncMap
// (functions.go) but what kImpure names and env and expandenv, which helm deletes; helm's own
// (pkg/engine/funcs.go, engine.go). sprig's `duration` and helm's duration helpers convert numbers and
// strings; none reads the clock.
constexpr std::string_view kPure[] = {
    "and", "eq", "ge", "gt", "html", "index", "js", "le", "len", "lt", "ne", "not", "or", "print", "printf",
    "println", "slice", "urlquery",
    // sprig: strings
    "abbrev", "abbrevboth", "trunc", "trim", "upper", "lower", "title", "untitle", "substr", "repeat", "trimall",
    "trimAll", "trimSuffix", "trimPrefix", "nospace", "initials", "swapcase", "snakecase", "camelcase", "kebabcase",
    "wrap", "wrapWith", "contains", "hasPrefix", "hasSuffix", "quote", "squote", "cat", "indent", "nindent",
    "replace", "plural", "toString", "hello", "split", "splitList", "splitn", "toStrings", "join", "sortAlpha",
    // sprig: hashes, encodings, derived (not generated) secrets and certificates
    "sha1sum", "sha256sum", "sha512sum", "adler32sum", "b64enc", "b64dec", "b32enc", "b32dec", "derivePassword",
    "buildCustomCert",
    // sprig: numbers
    "atoi", "int64", "int", "float64", "seq", "toDecimal", "until", "untilStep", "add1", "add", "sub", "div", "mod",
    "mul", "add1f", "addf", "subf", "divf", "mulf", "biggest", "max", "min", "maxf", "minf", "ceil", "floor", "round",
    // sprig: defaults, lists, dicts, JSON
    "default", "empty", "coalesce", "all", "any", "compact", "mustCompact", "ternary", "deepCopy", "mustDeepCopy",
    "tuple", "list", "dict", "get", "set", "unset", "hasKey", "pluck", "pick", "omit", "merge", "mergeOverwrite",
    "mustMerge", "mustMergeOverwrite", "append", "push", "mustAppend", "mustPush", "prepend", "mustPrepend", "first",
    "mustFirst", "rest", "mustRest", "last", "mustLast", "initial", "mustInitial", "reverse", "mustReverse", "uniq",
    "mustUniq", "without", "mustWithout", "has", "mustHas", "mustSlice", "concat", "dig", "chunk", "mustChunk",
    "fromJson", "toJson", "toPrettyJson", "toRawJson", "mustFromJson", "mustToJson", "mustToPrettyJson",
    "mustToRawJson",
    // sprig: reflection, paths, regular expressions, versions, URLs, failure
    "typeOf", "typeIs", "typeIsLike", "kindOf", "kindIs", "deepEqual", "base", "dir", "clean", "ext", "isAbs",
    "osBase", "osClean", "osDir", "osExt", "osIsAbs", "regexMatch", "mustRegexMatch", "regexFindAll",
    "mustRegexFindAll", "regexFind", "mustRegexFind", "regexReplaceAll", "mustRegexReplaceAll",
    "regexReplaceAllLiteral", "mustRegexReplaceAllLiteral", "regexSplit", "mustRegexSplit", "regexQuoteMeta",
    "semver", "semverCompare", "urlParse", "urlJoin", "fail", "duration",
    // helm
    "include", "tpl", "required", "toToml", "mustToToml", "fromToml", "toYaml", "mustToYaml", "toYamlPretty",
    "fromYaml", "fromYamlArray", "fromJsonArray", "mustToDuration", "durationSeconds", "durationMilliseconds",
    "durationMicroseconds", "durationNanoseconds", "durationMinutes", "durationHours", "durationDays",
    "durationWeeks", "durationRoundTo", "durationTruncateTo",
};

// Functions helm defines whose result is not a function of the digest's inputs: random values and keys (and
// encryptAES's random IV; decryptAES goes with it), the clock and the local time zone (dateInZone of anything
// but a time is now; toDate parses in the local zone), the order Go ranges over a map in (keys, values), the
// cluster, DNS, and `call`, which runs whatever function a value holds.
constexpr std::string_view kImpure[] = {
    "randAlphaNum", "randAlpha", "randAscii", "randNumeric", "randInt", "randBytes", "shuffle", "uuidv4",
    "genPrivateKey", "genCA", "genCAWithKey", "genSelfSignedCert", "genSelfSignedCertWithKey", "genSignedCert",
    "genSignedCertWithKey", "bcrypt", "htpasswd", "encryptAES", "decryptAES",
    "now", "ago", "date", "date_in_zone", "dateInZone", "date_modify", "dateModify", "must_date_modify",
    "mustDateModify", "toDate", "mustToDate", "htmlDate", "htmlDateInZone", "durationRound", "unixEpoch",
    "keys", "values", "lookup", "getHostByName", "call",
};

bool Pure(std::string_view name) { return std::find(std::begin(kPure), std::end(kPure), name) != std::end(kPure); }

// What parsing a text found: the first function off the allowlist it calls, whether it calls tpl, or why it
// does not parse; and, for tpl, where its text may come from.
struct TextCalls {
  std::string impure;
  bool tpl = false;
  std::string parse_error;
  std::string built_tpl;  ///< why a tpl call renders text the template builds (only values and files are checked)
  std::string mutates;    ///< a call that puts built text into a map (set, merge): a field may then hold it
  // Where text is as values and files hold it, while walking: dot and $ (both are whatever the caller passes in a
  // define, and dot is what range or with iterates), and variables some assignment gives anything else.
  bool dot_plain = true;
  bool root_plain = true;
  std::set<std::string> tainted;
};

bool IsCall(const Node& command, std::string_view name) {
  return !command.nodes.empty() && command.nodes[0]->type == NodeType::kIdentifier && command.nodes[0]->text == name;
}

bool PlainCommand(const Node& command, const TextCalls& at);

// Whether `n`, as the text tpl renders, is text as values or files hold it: a field of a plain dot, a variable
// that only ever holds such text, a constant without an action, or a pipe of plain commands. Text the template
// builds (printf, cat, replace, include) could hold any call, which no check of values and files sees.
bool PlainText(const Node& n, const TextCalls& at) {
  switch (n.type) {
    case NodeType::kField: case NodeType::kDot: return at.dot_plain;
    case NodeType::kVariable: return n.ident.empty() || (n.ident[0] == "$" ? at.root_plain : at.tainted.count(n.ident[0]) == 0);
    case NodeType::kChain: return n.pipe != nullptr && PlainText(*n.pipe, at);
    case NodeType::kString: return n.text.find("{{") == std::string::npos;
    case NodeType::kNumber: case NodeType::kBool: case NodeType::kNil: return true;
    case NodeType::kPipe:
      return std::all_of(n.nodes.begin(), n.nodes.end(), [&at](const auto& c) { return PlainCommand(*c, at); });
    default: return false;
  }
}

// A command that hands on values or files as they are: a field or method (.Files.Get "x"), or a function that
// only re-encodes its argument, with plain operands.
bool PlainCommand(const Node& command, const TextCalls& at) {
  static const std::set<std::string> kPassing = {"toYaml", "mustToYaml", "toYamlPretty", "toJson", "mustToJson",
                                                 "toString", "default", "index"};
  if (command.nodes.empty()) return false;
  const Node& head = *command.nodes[0];
  if (head.type == NodeType::kIdentifier && kPassing.count(head.text) == 0) return false;
  return std::all_of(command.nodes.begin() + (head.type == NodeType::kIdentifier ? 1 : 0), command.nodes.end(),
                     [&at](const auto& operand) { return PlainText(*operand, at); });
}

// A tpl call in `pipe` at `i` whose text is not plain (PlainText): its first argument, or, piped in, the commands
// before it.
void CheckTplText(const Node& pipe, size_t i, TextCalls& out) {
  const Node& command = *pipe.nodes[i];
  bool plain = command.nodes.size() >= 3 ? PlainText(*command.nodes[1], out) : i > 0;
  for (size_t j = 0; plain && command.nodes.size() < 3 && j < i; ++j) plain = PlainCommand(*pipe.nodes[j], out);
  if (!plain && out.built_tpl.empty()) out.built_tpl = "calls tpl on text the template builds";
}

// set, unset and the merges change a map in place: with an operand that is not plain, a field read later (even of
// .Values) may hold built text.
void CheckMutation(const Node& command, TextCalls& out) {
  for (const char* name : {"set", "unset", "merge", "mergeOverwrite", "mustMerge", "mustMergeOverwrite"}) {
    if (!IsCall(command, name) || !out.mutates.empty()) continue;
    for (size_t i = 1; i < command.nodes.size(); ++i) {
      if (!PlainText(*command.nodes[i], out)) out.mutates = name;
    }
  }
}

void Visit(const Node* n, TextCalls& out);
void VisitPipe(const Node& pipe, bool sorted_last, TextCalls& out);

// `sorted`: the command's result goes to sortAlpha, which undoes Go's random map order of keys and values.
void VisitCommand(const Node& command, bool sorted, TextCalls& out) {
  CheckMutation(command, out);
  const bool map_order = IsCall(command, "keys") || IsCall(command, "values");
  for (size_t i = map_order && sorted ? 1 : 0; i < command.nodes.size(); ++i) {
    const Node& operand = *command.nodes[i];
    if (operand.type == NodeType::kPipe) {
      VisitPipe(operand, IsCall(command, "sortAlpha"), out);  // sortAlpha (keys $m)
    } else {
      Visit(&operand, out);
    }
  }
}

// `sorted_last`: the pipe's result goes to sortAlpha. Variables it declares or assigns hold what it gives.
void VisitPipe(const Node& pipe, bool sorted_last, TextCalls& out) {
  if (!PlainText(pipe, out)) {
    for (const auto& var : pipe.decl) {
      if (!var->ident.empty()) out.tainted.insert(var->ident[0]);
    }
  }
  for (size_t i = 0; i < pipe.nodes.size(); ++i) {
    if (IsCall(*pipe.nodes[i], "tpl")) CheckTplText(pipe, i, out);
    const bool last = i + 1 == pipe.nodes.size();
    const bool sorted = last ? sorted_last : IsCall(*pipe.nodes[i + 1], "sortAlpha");  // keys $m | sortAlpha
    VisitCommand(*pipe.nodes[i], sorted, out);
  }
}

// Every identifier of a parse tree is a function call (Go's evalFunction), wherever it is: actions, the pipes
// of if, range, with and template, commands, chains, parenthesized pipes, lists and else lists.
void Visit(const Node* n, TextCalls& out) {
  if (n == nullptr) return;
  switch (n->type) {
    case NodeType::kIdentifier:
      out.tpl = out.tpl || n->text == "tpl";
      if (out.impure.empty() && !Pure(n->text)) out.impure = n->text;
      return;
    case NodeType::kPipe: return VisitPipe(*n, false, out);
    case NodeType::kCommand: return VisitCommand(*n, false, out);
    default: break;
  }
  for (const auto& child : n->nodes) Visit(child.get(), out);
  Visit(n->pipe.get(), out);
  // range and with set dot to what their pipe gives: plain only when that is.
  const bool dot = out.dot_plain;
  if (n->type == NodeType::kRange || n->type == NodeType::kWith) {
    out.dot_plain = dot && n->pipe != nullptr && PlainText(*n->pipe, out);
  }
  Visit(n->list.get(), out);
  out.dot_plain = dot;
  Visit(n->else_list.get(), out);
}

TextCalls Calls(const ChartText& text, const std::set<std::string>& functions) {
  TextCalls out;
  util::Result<gotemplate::TreeSet> trees = gotemplate::Parse({text.text, text.path}, text.path, functions);
  if (!trees) {
    out.parse_error = trees.error().message;
    return out;
  }
  // Until no more variables turn out to hold built text (one may be given another declared after it in a loop).
  for (size_t tainted = SIZE_MAX; tainted != out.tainted.size();) {
    tainted = out.tainted.size();
    for (const auto& [name, root] : *trees) {
      out.dot_plain = out.root_plain = name == text.path;  // a define's dot and $ are what its caller passes
      Visit(root.get(), out);
    }
  }
  return out;
}

// A rule of helm's .helmignore (pkg/ignore): a glob against the path relative to the chart, or against its base
// name when the rule has no "/"; a rule ending in "/" matches directories only.
struct IgnoreRule {
  std::string glob;
  bool dir_only = false;
  bool base_only = false;
};

// The rules of the chart's .helmignore, or none when one is beyond a plain glob (a negation, "**", brackets,
// escapes): then every
// file is checked, and checking a file helm skips costs a render, never a stale one.
std::vector<IgnoreRule> IgnoreRules(const LocalChartFiles& chart) {
  const auto file = std::find_if(chart.files.begin(), chart.files.end(),
                                 [](const ChartText& f) { return f.path == ".helmignore"; });
  if (file == chart.files.end()) return {};
  std::vector<IgnoreRule> rules;
  for (std::string line : util::Split(file->text, '\n')) {
    if (util::StartsWith(line, "\xEF\xBB\xBF")) line.erase(0, 3);
    line = std::string(util::Trim(line));
    if (line.empty() || line[0] == '#') continue;
    // Go's filepath.Match, which helm uses, and fnmatch differ on brackets ([!a] negates only in fnmatch) and
    // escapes: such a rule is beyond a plain glob too.
    if (line[0] == '!' || line.find_first_of("[\\") != std::string::npos || line.find("**") != std::string::npos) return {};
    IgnoreRule rule;
    rule.dir_only = util::EndsWith(line, "/");
    if (rule.dir_only) line.pop_back();
    rule.base_only = line.find('/') == std::string::npos;
    rule.glob = line[0] == '/' ? line.substr(1) : line;
    rules.push_back(std::move(rule));
  }
  return rules;
}

bool Matches(const IgnoreRule& rule, const std::string& path) {
  const std::string name = rule.base_only ? path.substr(path.rfind('/') + 1) : path;
  return fnmatch(rule.glob.c_str(), name.c_str(), FNM_PATHNAME) == 0;
}

// helm skips an ignored file and everything under an ignored directory.
bool Ignored(const std::string& path, const std::vector<IgnoreRule>& rules) {
  for (size_t end = path.find('/');; end = path.find('/', end + 1)) {
    const bool dir = end != std::string::npos;
    const std::string part = path.substr(0, end);
    for (const IgnoreRule& rule : rules) {
      if ((dir || !rule.dir_only) && Matches(rule, part)) return true;
    }
    if (!dir) return false;
  }
}

enum class ChartPart { kTemplate, kValues, kFile, kArchive, kNone };

// What helm's loader (pkg/chart/v2/loader LoadFiles) makes of a file, in the chart or a subchart at any depth.
ChartPart Classify(std::string_view path) {
  while (util::StartsWith(path, "charts/")) {
    if (util::EndsWith(path, ".prov")) return ChartPart::kFile;
    path.remove_prefix(7);
    if (path.empty() || path[0] == '.' || path[0] == '_') return ChartPart::kNone;  // not loaded
    const size_t slash = path.find('/');
    if (slash == std::string_view::npos) return util::EndsWith(path, ".tgz") ? ChartPart::kArchive : ChartPart::kNone;
    path.remove_prefix(slash + 1);
  }
  if (util::StartsWith(path, "templates/")) return ChartPart::kTemplate;
  if (path == "values.yaml") return ChartPart::kValues;
  if (path == "Chart.yaml" || path == "Chart.lock" || path == "values.schema.json") return ChartPart::kNone;
  return ChartPart::kFile;
}

// A chart's files helm loads, with what each is.
std::vector<std::pair<const ChartText*, ChartPart>> Loaded(const LocalChartFiles& chart) {
  const std::vector<IgnoreRule> rules = IgnoreRules(chart);
  std::vector<std::pair<const ChartText*, ChartPart>> out;
  for (const ChartText& file : chart.files) {
    if (!Ignored(file.path, rules)) out.emplace_back(&file, Classify(file.path));
  }
  return out;
}

// Every string of `value` holding "{{", named by where it is (`values.yaml .a.b[0]`). Keys too: toYaml hands
// them to tpl with the values.
void TemplateStrings(const json& value, const std::string& at, std::vector<ChartText>& out) {
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    if (text.find("{{") != std::string::npos) out.push_back({at, text});
  } else if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      if (key.find("{{") != std::string::npos) out.push_back({at + " key", key});
      TemplateStrings(item, util::StrCat(at, ".", key), out);
    }
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) TemplateStrings(value[i], util::StrCat(at, "[", i, "]"), out);
  }
}

// The texts tpl may render: strings of values, and files .Files reads, that hold "{{". A values text that does
// not decode is one text, so that it fails to parse (helm refuses it too).
void TplTexts(const ChartText& values, ChartPart part, std::vector<ChartText>& out) {
  if (values.text.find("{{") == std::string::npos) return;
  if (part == ChartPart::kFile) return out.push_back(values);
  util::YamlOptions options;
  options.source_name = values.path;
  util::Result<std::vector<json>> docs = util::ParseYamlStream(values.text, options);
  if (!docs) return out.push_back(values);
  for (const json& doc : *docs) TemplateStrings(doc, values.path + " ", out);
}

std::set<std::string> HelmFunctions() {
  std::set<std::string> names(std::begin(kPure), std::end(kPure));
  names.insert(std::begin(kImpure), std::end(kImpure));
  return names;
}

// The templates of every chart: the first reason, and the chart calling tpl (null when none does).
std::string CheckTemplates(const std::vector<LocalChartFiles>& charts, const std::set<std::string>& functions,
                           const LocalChartFiles*& tpl_chart) {
  std::string mutation;
  for (const LocalChartFiles& chart : charts) {
    const std::string name = util::Quote(chart.name);
    for (const auto& [file, part] : Loaded(chart)) {
      if (part == ChartPart::kArchive) {
        return util::StrCat("chart ", name, " holds an archived subchart ", util::Quote(file->path),
                            ": its templates are not read by the digest");
      }
      if (part != ChartPart::kTemplate) continue;
      const TextCalls calls = Calls(*file, functions);
      if (!calls.parse_error.empty()) return util::StrCat("chart ", name, " does not parse: ", calls.parse_error);
      if (!calls.impure.empty()) {
        return util::StrCat("chart ", name, " calls ", util::Quote(calls.impure), " in ", file->path);
      }
      if (!calls.built_tpl.empty()) return util::StrCat("chart ", name, " ", calls.built_tpl, " in ", file->path);
      if (calls.tpl && tpl_chart == nullptr) tpl_chart = &chart;
      if (!calls.mutates.empty() && mutation.empty()) {
        mutation = util::StrCat("chart ", name, " calls tpl, and ", util::Quote(calls.mutates), " in ", file->path,
                                " puts text the template builds into a map tpl may read");
      }
    }
  }
  return tpl_chart != nullptr ? mutation : "";
}

}  // namespace

std::string ImpureRenderReason(const std::vector<LocalChartFiles>& charts, const std::vector<ChartText>& values) {
  const std::set<std::string> functions = HelmFunctions();
  const LocalChartFiles* tpl_chart = nullptr;
  if (std::string reason = CheckTemplates(charts, functions, tpl_chart); !reason.empty()) return reason;
  if (tpl_chart == nullptr) return "";
  // tpl renders text the templates hand it: from any chart's values and files (.Files.Get), and the release's.
  std::vector<ChartText> texts;
  for (const LocalChartFiles& chart : charts) {
    for (const auto& [file, part] : Loaded(chart)) {
      if (part == ChartPart::kValues || part == ChartPart::kFile) TplTexts(*file, part, texts);
    }
  }
  for (const ChartText& release : values) {
    TplTexts({"the release's " + release.path, release.text}, ChartPart::kValues, texts);
  }
  const std::string prefix = util::StrCat("chart ", util::Quote(tpl_chart->name), " renders text with tpl, and ");
  for (const ChartText& text : texts) {
    const TextCalls calls = Calls(text, functions);
    if (!calls.parse_error.empty()) {
      return util::StrCat(prefix, "a text it may render does not parse: ", calls.parse_error);
    }
    if (!calls.impure.empty()) return util::StrCat(prefix, text.path, " calls ", util::Quote(calls.impure));
    if (!calls.built_tpl.empty()) return util::StrCat(prefix, text.path, " ", calls.built_tpl);
  }
  return "";
}

}  // namespace tazuna::manifest
