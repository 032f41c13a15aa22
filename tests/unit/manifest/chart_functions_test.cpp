#include "manifest/chart_functions.hpp"

#include <doctest/doctest.h>

namespace tazuna::manifest {
namespace {

std::string Reason(std::vector<ChartText> files, const std::vector<ChartText>& values = {}) {
  return ImpureRenderReason({{"app", std::move(files)}}, values);
}

std::string Template(const std::string& text) { return Reason({{"templates/cm.yaml", text}}); }

std::string Calls(const std::string& name, const std::string& file = "templates/cm.yaml") {
  return "chart \"app\" calls \"" + name + "\" in " + file;
}

const std::string kTpl = "chart \"app\" renders text with tpl, and ";

}  // namespace

TEST_CASE("chart functions: random values, keys, the clock, map order, the cluster, DNS and call are refused") {
  for (const char* name :
       {"randAlphaNum", "randAlpha", "randAscii", "randNumeric", "randInt", "randBytes", "shuffle", "uuidv4",
        "genCA", "genCAWithKey", "genPrivateKey", "genSelfSignedCert", "genSelfSignedCertWithKey", "genSignedCert",
        "genSignedCertWithKey", "bcrypt", "htpasswd", "encryptAES", "decryptAES", "now", "ago", "date",
        "dateInZone", "date_in_zone", "dateModify", "date_modify", "mustDateModify", "toDate", "mustToDate",
        "htmlDate", "htmlDateInZone", "durationRound", "unixEpoch", "keys", "values", "lookup", "getHostByName",
        "call"}) {
    CAPTURE(name);
    CHECK(Template(std::string("a: {{ ") + name + " }}\n") == Calls(name));
  }
  CHECK(Template("data: {{ (lookup \"v1\" \"Secret\" .Release.Namespace \"x\").data | toYaml }}") == Calls("lookup"));
}

TEST_CASE("chart functions: names helm does not define (env and expandenv: helm deletes them) do not parse") {
  CHECK(Template("a: {{ env \"HOME\" }}") ==
        "chart \"app\" does not parse: templates/cm.yaml:1:7: template: function \"env\" not defined");
  CHECK(Template("a: {{ expandenv \"$HOME\" }}") ==
        "chart \"app\" does not parse: templates/cm.yaml:1:7: template: function \"expandenv\" not defined");
  CHECK(Template("a: {{ myHelper 1 }}") ==
        "chart \"app\" does not parse: templates/cm.yaml:1:7: template: function \"myHelper\" not defined");
  CHECK(Template("a: {{ if }}x{{ end }}") ==
        "chart \"app\" does not parse: templates/cm.yaml:1:10: template: missing value for if");
}

TEST_CASE("chart functions: the helpers charts are made of are pure") {
  const std::string helpers =
      "{{- define \"app.labels\" -}}\n"
      "app: {{ .Chart.Name | trunc 63 | trimSuffix \"-\" | quote }}\n"
      "sum: {{ include (print $.Template.BasePath \"/cm.yaml\") . | sha256sum }}\n"
      "{{- end }}\n";
  const std::string cm =
      "metadata:\n  labels: {{- include \"app.labels\" . | nindent 4 }}\n"
      "  name: {{ printf \"%s-%s\" .Release.Name (default \"x\" .Values.name) }}\n"
      "data:\n  pw: {{ required \"pw is required\" .Values.pw | b64enc }}\n"
      "  merged: {{ merge (dict \"a\" 1) .Values.extra | toYaml | nindent 4 }}\n"
      "  list: {{ list 1 2 | toJson }}\n"
      "  {{- if semverCompare \">=1.21-0\" .Capabilities.KubeVersion.GitVersion }}\n"
      "  pdb: {{ .Capabilities.APIVersions.Has \"policy/v1\" }}\n"
      "  {{- end }}\n"
      "  {{- range $k := keys .Values.m | sortAlpha }}{{ $k }}{{ end }}\n"
      "  sorted: {{ sortAlpha (keys .Values.m) | join \",\" }}\n"
      "  derived: {{ derivePassword 1 \"long\" \"p\" \"u\" \"s\" }} {{ duration 90 }}\n";
  CHECK(Reason({{"templates/_helpers.tpl", helpers}, {"templates/cm.yaml", cm}}) == "");
  CHECK(Template("a: {{ keys .Values.m | join \",\" }}") == Calls("keys"));  // Go's random map order
}

TEST_CASE("chart functions: calls are found wherever the parse tree holds them") {
  for (const char* text : {
           "{{ printf \"%s}\" (randAlphaNum 8) }}",  // a "}" inside the action
           "{{ if eq (randAlphaNum 1) \"a\" }}x{{ end }}",
           "{{ if .Values.a }}x{{ else if randAlphaNum 1 }}y{{ end }}",
           "{{ if .Values.a }}x{{ else }}{{ randAlphaNum 1 }}{{ end }}",
           "{{ range $i, $v := splitList \",\" (randAlphaNum 5) }}{{ $v }}{{ end }}",
           "{{ range .Values.l }}{{ else }}{{ with randAlphaNum 2 }}{{ . }}{{ end }}{{ end }}",
           "{{ with $x := (list (randAlphaNum 3)) }}{{ $x }}{{ end }}",
           "{{ $s := randAlphaNum 4 }}{{ $s }}",
           "{{ $s := \"\" }}{{ $s = (print (randAlphaNum 4)) }}",
           "{{ template \"t\" (dict \"v\" (randAlphaNum 5)) }}",
           "{{ block \"b\" . }}{{ randAlphaNum 6 }}{{ end }}",
           "{{ (randAlphaNum 7).Len }}",
           "{{ .Values.a | default (randAlphaNum 8) | quote }}",
       }) {
    CAPTURE(text);
    CHECK(Template(text) == Calls("randAlphaNum"));
  }
  CHECK(Template("{{/* now and randAlphaNum in a comment */}}# now, in prose\n{{ \"now\" }}") == "");
}

TEST_CASE("chart functions: helpers, subcharts and archived subcharts") {
  CHECK(Reason({{"templates/_helpers.tpl", "{{ define \"pw\" }}{{ randAlphaNum 16 }}{{ end }}"},
                {"templates/cm.yaml", "pw: {{ include \"pw\" . }}"}}) ==
        Calls("randAlphaNum", "templates/_helpers.tpl"));
  CHECK(Reason({{"templates/NOTES.txt", "Installed at {{ now }}"}}) == Calls("now", "templates/NOTES.txt"));
  CHECK(Reason({{"charts/db/templates/x.yaml", "t: {{ now }}"}}) == Calls("now", "charts/db/templates/x.yaml"));
  CHECK(Reason({{"charts/db/charts/cache/templates/deep/x.yaml", "t: {{ now }}"}}) ==
        Calls("now", "charts/db/charts/cache/templates/deep/x.yaml"));
  CHECK(Reason({{"charts/_db/templates/x.yaml", "t: {{ now }}"}}) == "");  // helm loads no such chart
  CHECK(Reason({{"docs/templates/x.yaml", "t: {{ now }}"}}) == "");       // not a template: a file
  CHECK(Reason({{"charts/db-1.2.3.tgz", "\x1f\x8b"}, {"templates/cm.yaml", "a: b"}}) ==
        "chart \"app\" holds an archived subchart \"charts/db-1.2.3.tgz\": its templates are not read by the digest");
  CHECK(Reason({{"charts/db/charts/cache-1.0.0.tgz", ""}}) ==
        "chart \"app\" holds an archived subchart \"charts/db/charts/cache-1.0.0.tgz\": its templates are not read "
        "by the digest");
  // .helmignore: helm does not load what it names.
  CHECK(Reason({{".helmignore", "# generated\n*.bak\nexamples/\n"},
                {"templates/cm.yaml.bak", "{{ now }}"},
                {"charts/db/templates/x.yaml.bak", "{{ now }}"}}) == "");
}

TEST_CASE("chart functions: what tpl renders is checked when a template calls tpl") {
  const ChartText tpl{"templates/cm.yaml", "stamp: {{ tpl .Values.stamp . }}\n"};
  CHECK(Reason({tpl, {"values.yaml", "stamp: '{{ randAlphaNum 8 }}'\n"}}) ==
        kTpl + "values.yaml .stamp calls \"randAlphaNum\"");
  CHECK(Reason({tpl, {"values.yaml", "stamp: '{{ .Release.Name | upper }}'\nl: ['{{ now }}']\n"}}) ==
        kTpl + "values.yaml .l[0] calls \"now\"");
  CHECK(Reason({tpl, {"values.yaml", "stamp: '{{ .Release.Name | upper }}'\n"}}) == "");
  CHECK(Reason({{"templates/cm.yaml", "stamp: {{ .Values.stamp }}"}, {"values.yaml", "stamp: '{{ now }}'"}}) == "");
  CHECK(Reason({tpl, {"charts/db/values.yaml", "m:\n  '{{ now }}': 1\n"}}) ==
        kTpl + "charts/db/values.yaml .m key calls \"now\"");
  CHECK(Reason({tpl, {"values.yaml", "stamp: '{{ env \"X\" }}'"}}) ==
        kTpl + "a text it may render does not parse: values.yaml .stamp:1:4: template: function \"env\" not defined");
  // The release's values: files, inline values and set entries.
  CHECK(Reason({tpl}, {{"prod.yaml", "stamp: '{{ uuidv4 }}'"}}) ==
        kTpl + "the release's prod.yaml .stamp calls \"uuidv4\"");
  CHECK(Reason({tpl}, {{"set", R"([{"name":"stamp","value":"{{ now }}"}])"}}) ==
        kTpl + "the release's set [0].value calls \"now\"");
  CHECK(Reason({tpl}, {{"inline values", R"({"stamp":"{{ .Chart.Name }}"})"}}) == "");
  // A subchart's tpl renders values the parent's values.yaml gives it.
  CHECK(Reason({{"charts/db/templates/x.yaml", "{{ tpl .Values.t . }}"}, {"values.yaml", "db: {t: '{{ now }}'}"}}) ==
        kTpl + "values.yaml .db.t calls \"now\"");
}

TEST_CASE("chart functions: tpl of a file .Files reads") {
  const ChartText tpl{"templates/cm.yaml", "conf: {{ tpl (.Files.Get \"files/app.conf\") . | quote }}\n"};
  CHECK(Reason({tpl, {"files/app.conf", "id = {{ uuidv4 }}\n"}}) == kTpl + "files/app.conf calls \"uuidv4\"");
  CHECK(Reason({tpl, {"files/app.conf", "name = {{ .Release.Name }}\n"}}) == "");
  CHECK(Reason({{"templates/cm.yaml", "a: b"}, {"files/app.conf", "id = {{ uuidv4 }}\n"}}) == "");  // no tpl
  // A file that is no template (a dashboard's own placeholders) fails closed.
  CHECK(Reason({tpl, {"dashboards/d.json", "{\"legend\": \"{{instance}}\"}"}}) ==
        kTpl + "a text it may render does not parse: dashboards/d.json:1:15: template: function \"instance\" not "
               "defined");
  CHECK(Reason({tpl, {".helmignore", "dashboards/\n"}, {"dashboards/d.json", "{{instance}}"}}) == "");
  // Files helm never hands to .Files.
  CHECK(Reason({tpl, {"Chart.yaml", "name: '{{ now }}'"}, {"values.schema.json", "{\"x\": \"{{ now }}\"}"}}) == "");
  // Two charts of one release: one calls tpl, the other holds the text.
  CHECK(ImpureRenderReason({{"lib", {{"files/x", "{{ now }}"}}}, {"app", {tpl}}}, {}) ==
        kTpl + "files/x calls \"now\"");
}


TEST_CASE("chart functions: tpl of text the template builds is refused, text from values and files is not") {
  const std::string built = "chart \"app\" calls tpl on text the template builds in templates/cm.yaml";
  // Text built in the template may hold any call, spelled so that no values string shows an action.
  CHECK(Template("{{ tpl (printf \"{{ %s 8 }}\" .Values.fn) . }}") == built);
  CHECK(Template("{{ tpl (cat \"{{\" .Values.fn \"}}\") . }}") == built);
  CHECK(Template("{{ printf \"{{ %s }}\" .Values.fn | tpl . }}") == built);
  CHECK(Template("{{ tpl \"{{ randAlphaNum 8 }}\" . }}") == built);
  CHECK(Template("{{ tpl (.Values.a | replace \"x\" \"y\") . }}") == built);
  // Values and files as they are, re-encoded, or through a variable bound from them.
  CHECK(Template("{{ tpl .Values.a . }}{{ tpl (toYaml .Values.b) $ }}{{ .Values.c | toYaml | tpl $ }}") == "");
  CHECK(Template("{{ range .Values.extra }}{{ tpl . $ }}{{ end }}{{ with .Values.d }}{{ tpl (default \"x\" .) $ }}{{ end }}") == "");
  CHECK(Template("{{ tpl (.Files.Get \"files/a.conf\") . }}{{ $v := .Values.e }}{{ tpl $v . }}") == "");
  // In a values string tpl renders, the same rule.
  CHECK(Reason({{"templates/cm.yaml", "{{ tpl .Values.a . }}"}, {"values.yaml", "a: '{{ tpl (printf \"%s\" .Values.b) . }}'"}}) ==
        kTpl + "values.yaml .a calls tpl on text the template builds");
}


TEST_CASE("chart functions: where tpl's text comes from is followed through variables, dot, defines and maps") {
  const std::string built = "chart \"app\" calls tpl on text the template builds in templates/cm.yaml";
  // Built text reaching tpl through a variable, a chain, a define's dot, range over built data.
  CHECK(Template("{{ $t := printf \"{{ %s }}\" \"now\" }}{{ tpl $t . }}") == built);
  CHECK(Template("{{ $t := .Values.a }}{{ $t = printf \"{{ now }}\" }}{{ tpl $t . }}") == built);
  CHECK(Template("{{ $u := include \"x\" . }}{{ $t := $u }}{{ tpl $t . }}") == built);
  CHECK(Template("{{ tpl (dict \"t\" (printf \"{{ %s }}\" \"now\")).t . }}") == built);
  CHECK(Template("{{ $c := .Files.Get \"c.yaml\" | fromYaml }}{{ tpl $c.t . }}") == built);
  CHECK(Template("{{ range (list (printf \"{{ now }}\")) }}{{ tpl . $ }}{{ end }}") == built);
  CHECK(Template("{{ with printf \"{{ now }}\" }}{{ tpl . $ }}{{ end }}") == built);
  CHECK(Template("{{ define \"t\" }}{{ tpl . $ }}{{ end }}{{ include \"t\" (printf \"{{ now }}\") }}") == built);
  // A map changed at render time with built text: any field may hold it.
  CHECK(Template("{{ $_ := set .Values \"t\" (printf \"{{ %s }}\" \"now\") }}{{ tpl .Values.t . }}") ==
        "chart \"app\" calls tpl, and \"set\" in templates/cm.yaml puts text the template builds into a map tpl may read");
  // Values as they are: ranged over, bound, set from values (cert-manager's chart does all three).
  CHECK(Template("{{ range .Values.extra }}{{ tpl . $ }}{{ end }}{{ range $k, $v := .Values.m }}{{ tpl $v $ }}{{ end }}") == "");
  CHECK(Template("{{ $c := .Values.config }}{{ $_ := set $c \"kind\" (default \"K\" $c.kind) }}{{ tpl (toYaml $c) $ }}") == "");
  CHECK(Template("{{ define \"t\" }}{{ printf \"%s\" . }}{{ end }}{{ tpl .Values.a . }}") == "");
}

}  // namespace tazuna::manifest
