// helmfile.yaml.gotmpl without the helmfile binary: Go's text/template twin with the few helmfile and
// sprig functions whose results tests/e2e/helmfile_test.sh compares with real helmfile.
#include "manifest/helmfile_template.hpp"

#include "manifest/gotemplate/exec.hpp"
#include "manifest/gotemplate/parse.hpp"
#include "util/go_fmt.hpp"
#include "util/go_strconv.hpp"
#include "util/go_unicode.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

using gotemplate::ArgType;
using util::GoKind;
using util::GoValue;

util::Error Fail(std::string message) { return util::MakeError(util::ErrorKind::kInput, std::move(message)); }

GoValue FromJson(const nlohmann::json& v) {
  if (v.is_object()) {
    util::GoMap m;
    for (const auto& [key, item] : v.items()) m[key] = FromJson(item);
    return GoValue::Map(std::move(m));
  }
  if (v.is_array()) {
    util::GoSlice s;
    for (const auto& item : v) s.push_back(FromJson(item));
    return GoValue::Slice(std::move(s));
  }
  if (v.is_string()) return GoValue::String(v.get<std::string>());
  if (v.is_boolean()) return GoValue::Bool(v.get<bool>());
  if (v.is_number_integer()) return GoValue::Int(v.get<int64_t>());
  if (v.is_number()) return GoValue::Float(v.get<double>());
  return GoValue::Nil();
}

// sprig's strval: a string as it is, anything else as %v.
std::string StrVal(const GoValue& v) { return v.kind == GoKind::kString ? v.s : util::GoSprint({v}); }

bool Empty(const GoValue& v) {
  bool ok = true;
  return !gotemplate::IsTrue(v, &ok);
}

std::string TrimSpace(const std::string& s) {
  size_t begin = 0, end = s.size();
  while (begin < end) {
    const util::DecodedRune d = util::DecodeRune(std::string_view(s).substr(begin));
    if (!util::IsGoSpace(d.rune) || (d.width == 1 && d.rune == util::kRuneError)) break;
    begin += d.width;
  }
  while (end > begin) {
    size_t start = end - 1;
    while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    const util::DecodedRune d = util::DecodeRune(std::string_view(s).substr(start, end - start));
    if (d.width != end - start || !util::IsGoSpace(d.rune)) break;
    end = start;
  }
  return s.substr(begin, end - begin);
}

gotemplate::FunctionMap HelmfileFunctions(const util::Environment& env, std::set<std::string>* env_reads) {
  using Args = std::vector<GoValue>;
  gotemplate::FunctionMap m;
  m["default"] = {{{ArgType::kAny}, ArgType::kAny}, [](Args& a) -> util::Result<GoValue> {
                    return a.size() < 2 || Empty(a[1]) ? a[0] : a[1];
                  }};
  const auto quoted = [](char q) {
    return [q](Args& a) -> util::Result<GoValue> {
      std::vector<std::string> out;
      for (const GoValue& v : a) {
        if (v.kind == GoKind::kNil) continue;
        out.push_back(q == '"' ? util::GoQuote(StrVal(v), util::QuoteMode::kUnicode) : "'" + StrVal(v) + "'");
      }
      return GoValue::String(util::Join(out, " "));
    };
  };
  m["quote"] = {{{}, ArgType::kAny}, quoted('"')};
  m["squote"] = {{{}, ArgType::kAny}, quoted('\'')};
  m["trim"] = {{{ArgType::kString}, std::nullopt}, [](Args& a) -> util::Result<GoValue> {
                 return GoValue::String(TrimSpace(a[0].s));
               }};
  m["required"] = {{{ArgType::kString, ArgType::kAny}, std::nullopt}, [](Args& a) -> util::Result<GoValue> {
                     if (a[1].kind == GoKind::kNil || (a[1].kind == GoKind::kString && a[1].s.empty())) return Fail(a[0].s);
                     return a[1];
                   }};
  m["requiredEnv"] = {{{ArgType::kString}, std::nullopt}, [&env, env_reads](Args& a) -> util::Result<GoValue> {
                        if (env_reads != nullptr) env_reads->insert(a[0].s);
                        const std::optional<std::string> v = env.Get(a[0].s);
                        if (!v || v->empty()) return Fail("required env var `" + a[0].s + "` is not set");
                        return GoValue::String(*v);
                      }};
  m["env"] = {{{ArgType::kString}, std::nullopt}, [&env, env_reads](Args& a) -> util::Result<GoValue> {
                if (env_reads != nullptr) env_reads->insert(a[0].s);
                return GoValue::String(env.GetOr(a[0].s, ""));
              }};
  return m;
}

}  // namespace

util::Result<std::string> RenderHelmfileTemplate(std::string_view text, const HelmfileTemplateData& data,
                                                 const std::string& file, const util::Environment& env,
                                                 std::set<std::string>* env_reads) {
  const gotemplate::FunctionMap functions = HelmfileFunctions(env, env_reads);
  std::set<std::string> names;
  for (const auto& [name, f] : gotemplate::Builtins()) names.insert(name);
  for (const auto& [name, f] : functions) names.insert(name);
  const gotemplate::Source source{text, file};
  auto trees = gotemplate::Parse(source, file, names);
  if (!trees) {
    const std::string& message = trees.error().message;
    if (message.find(": template: function \"") != std::string::npos && util::EndsWith(message, "\" not defined")) {
      util::Error e = util::MakeError(util::ErrorKind::kToolMissing,
                                      util::StrCat(message, " (this function needs the helmfile binary)"));
      e.hint = "Install helmfile (go install github.com/helmfile/helmfile, see scripts/lib/install-helmfile) and put it on PATH.";
      return e;
    }
    return trees.error();
  }
  const GoValue values = FromJson(data.values);
  util::GoStruct environment{"environment.Environment",
                             {{"Name", GoValue::String(data.environment_name)}, {"KubeContext", GoValue::String("")},
                              {"Values", values}, {"Defaults", GoValue::Map({})}, {"CLIOverrides", GoValue::Map({})}}};
  const GoValue root = GoValue::Struct({"state.EnvironmentTemplateData",
                                        {{"Environment", GoValue::Struct(std::move(environment))},
                                         {"Namespace", GoValue::String(data.namespace_name)},
                                         {"Values", values},
                                         {"StateValues", values}}});
  gotemplate::ExecOptions options;
  options.missing_key = gotemplate::MissingKey::kError;
  options.functions = &functions;
  return gotemplate::Execute(source, *trees, file, root, options);
}

}  // namespace tazuna::manifest
