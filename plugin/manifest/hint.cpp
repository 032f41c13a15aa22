// tazuna.hint.yaml, as the Go tazuna documents and enforces it (pkg/hint there): the file's rules first,
// then the vars of a manifest against them. Each format check follows the Go function the Go tool calls
// (a hand-written twin of its pattern, net.ParseIP, net.ParseCIDR, url.ParseRequestURI, time.Parse).
#include "manifest/hint.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "util/strings.hpp"
#include "util/yaml_json.hpp"

namespace tazuna::manifest {
namespace {

using nlohmann::json;

util::Error Fail(const std::string& path, const std::string& message) {
  return util::MakeError(util::ErrorKind::kInput, util::StrCat(path, ": ", message));
}

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

bool AllOf(std::string_view s, bool (*ok)(char)) { return std::all_of(s.begin(), s.end(), ok); }

// ^([a-zA-Z0-9]([a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?\.)*[a-zA-Z0-9]([a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?$
bool ValidHostname(const std::string& s) {
  for (const std::string& label : util::Split(s, '.')) {
    if (label.empty() || label.size() > 63 || !IsAlnum(label.front()) || !IsAlnum(label.back())) return false;
    if (!AllOf(label, [](char c) { return IsAlnum(c) || c == '-'; })) return false;
  }
  return true;
}

// ^[a-zA-Z0-9._%+\-]+@[a-zA-Z0-9.\-]+\.[a-zA-Z]{2,}$
bool ValidEmail(const std::string& s) {
  const size_t at = s.find('@');
  if (at == std::string::npos || at == 0) return false;
  if (!AllOf(std::string_view(s).substr(0, at), [](char c) { return IsAlnum(c) || std::string_view("._%+-").find(c) != std::string_view::npos; })) return false;
  const std::string domain = s.substr(at + 1);
  if (!AllOf(domain, [](char c) { return IsAlnum(c) || c == '.' || c == '-'; })) return false;
  const size_t dot = domain.rfind('.');
  if (dot == std::string::npos || dot == 0) return false;
  const std::string tld = domain.substr(dot + 1);
  return tld.size() >= 2 && AllOf(tld, IsAlpha);
}

// ^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$
bool ValidUuid(const std::string& s) {
  const std::vector<std::string> parts = util::Split(s, '-');
  const size_t sizes[] = {8, 4, 4, 4, 12};
  if (parts.size() != 5) return false;
  for (size_t i = 0; i < 5; ++i) {
    if (parts[i].size() != sizes[i] || !AllOf(parts[i], IsHex)) return false;
  }
  return true;
}

// Dot-separated non-empty identifiers of [0-9A-Za-z-].
bool ValidIdentifiers(const std::string& s) {
  for (const std::string& id : util::Split(s, '.')) {
    if (id.empty() || !AllOf(id, [](char c) { return IsAlnum(c) || c == '-'; })) return false;
  }
  return true;
}

// ^v?([0-9]+)\.([0-9]+)\.([0-9]+)(-IDENTS)?(\+IDENTS)?$
bool ValidSemver(std::string s) {
  if (!s.empty() && s[0] == 'v') s.erase(0, 1);
  std::string build, pre;
  if (const size_t plus = s.find('+'); plus != std::string::npos) {
    build = s.substr(plus + 1);
    if (!ValidIdentifiers(build)) return false;
    s.erase(plus);
  }
  if (const size_t dash = s.find('-'); dash != std::string::npos) {
    pre = s.substr(dash + 1);
    if (!ValidIdentifiers(pre)) return false;
    s.erase(dash);
  }
  const std::vector<std::string> core = util::Split(s, '.');
  return core.size() == 3 && std::all_of(core.begin(), core.end(), [](const std::string& n) { return !n.empty() && AllOf(n, IsDigit); });
}

// net.ParseIP: dotted IPv4 (no leading zeros) or IPv6 (an IPv4 tail allowed, no zone).
bool ValidIp(const std::string& s) {
  unsigned char buf[16];
  if (s.find(':') == std::string::npos) return inet_pton(AF_INET, s.c_str(), buf) == 1;
  return inet_pton(AF_INET6, s.c_str(), buf) == 1;
}

int Number(const std::string& s, size_t at, size_t n) {
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (i >= s.size() || !IsDigit(s[i])) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

// net.ParseCIDR: an address, "/", a decimal prefix length up to its bits (leading zeros allowed).
bool ValidCidr(const std::string& s) {
  const size_t slash = s.find('/');
  if (slash == std::string::npos) return false;
  const std::string ip = s.substr(0, slash), bits = s.substr(slash + 1);
  if (!ValidIp(ip) || bits.empty() || bits.size() > 8 || !AllOf(bits, IsDigit)) return false;
  return Number(bits, 0, bits.size()) <= (ip.find(':') == std::string::npos ? 32 : 128);
}

// url.Parse's percent-escape check: every % starts a two-digit hex escape; in a host, only escapes of
// bytes >= 0x80 and %25.
bool ValidEscapes(std::string_view s, bool host) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') continue;
    if (i + 2 >= s.size() || !IsHex(s[i + 1]) || !IsHex(s[i + 2])) return false;
    if (host && std::string_view("01234567").find(s[i + 1]) != std::string_view::npos && s.substr(i, 3) != "%25") return false;
    i += 2;
  }
  return true;
}

bool ValidUrlHost(std::string_view host) {
  std::string_view port;
  if (!host.empty() && host[0] == '[') {
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return false;
    port = host.substr(close + 1);
    host = host.substr(0, close + 1);
  } else if (const size_t colon = host.rfind(':'); colon != std::string_view::npos) {
    port = host.substr(colon);
    host = host.substr(0, colon);
  }
  if (!port.empty() && (port[0] != ':' || !AllOf(port.substr(1), IsDigit))) return false;
  for (char c : host) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80 || IsAlnum(c) || std::string_view("-_.~!$&'()*+,;=:[]<>\"%").find(c) != std::string_view::npos) continue;
    return false;
  }
  return ValidEscapes(host, true);
}

// url.ParseRequestURI(s) succeeds and names a scheme.
bool ValidUrl(const std::string& s) {
  if (std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; })) return false;
  size_t i = 0;
  while (i < s.size() && (IsAlpha(s[i]) || (i > 0 && (IsDigit(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.')))) ++i;
  if (i == 0 || i >= s.size() || s[i] != ':') return false;  // no scheme
  std::string rest = s.substr(i + 1);
  if (!(util::EndsWith(rest, "?") && std::count(rest.begin(), rest.end(), '?') == 1)) {
    if (const size_t q = rest.find('?'); q != std::string::npos) rest.erase(q);
  } else {
    rest.pop_back();
  }
  if (!util::StartsWith(rest, "/")) return true;  // opaque
  if (util::StartsWith(rest, "//") && !util::StartsWith(rest, "///")) {
    const size_t slash = rest.find('/', 2);
    const std::string authority = rest.substr(2, slash == std::string::npos ? std::string::npos : slash - 2);
    rest = slash == std::string::npos ? "" : rest.substr(slash);
    std::string_view host = authority;
    if (const size_t at = authority.rfind('@'); at != std::string::npos) {
      const std::string_view user = std::string_view(authority).substr(0, at);
      for (char c : user) {
        if (!IsAlnum(c) && std::string_view("-._:~!$&'()*+,;=%@").find(c) == std::string_view::npos) return false;
      }
      if (!ValidEscapes(user, false)) return false;
      host = std::string_view(authority).substr(at + 1);
    }
    if (!ValidUrlHost(host)) return false;
  }
  return ValidEscapes(rest, false);
}

// time.Parse(time.RFC3339, s): YYYY-MM-DDTHH:MM:SS[.fraction|,fraction](Z|±hh:mm).
bool ValidDatetime(const std::string& s) {
  if (s.size() < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':') return false;
  const int year = Number(s, 0, 4), month = Number(s, 5, 2), day = Number(s, 8, 2);
  const int hour = Number(s, 11, 2), minute = Number(s, 14, 2), second = Number(s, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 59) {
    return false;
  }
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int days[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (day > days[month - 1]) return false;
  size_t i = 19;
  if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
    const size_t start = ++i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
  }
  const std::string zone = s.substr(i);
  if (zone == "Z") return true;
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':') return false;
  const int zh = Number(zone, 1, 2), zm = Number(zone, 4, 2);
  return zh >= 0 && zh <= 24 && zm >= 0 && zm <= 60;
}

const std::set<std::string>& KnownFormats() {
  static const std::set<std::string> kFormats = {"hostname", "url", "email", "ip", "cidr", "uuid", "semver", "datetime"};
  return kFormats;
}

util::Result<std::string> ScalarString(const json& v, const std::string& path, const std::string& where) {
  if (v.is_null()) return std::string();
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number() || v.is_boolean()) return v.dump();
  return Fail(path, util::StrCat(where, " must be a string"));
}

util::Result<std::vector<std::string>> StringList(const json& v, const std::string& path, const std::string& where) {
  std::vector<std::string> out;
  if (v.is_null()) return out;
  if (!v.is_array()) return Fail(path, util::StrCat(where, " must be a list of var names"));
  for (const json& item : v) {
    if (!item.is_string()) return Fail(path, util::StrCat(where, " must be a list of var names"));
    out.push_back(item.get<std::string>());
  }
  return out;
}

util::Result<HintVar> ParseVar(const std::string& name, const json& v, const std::string& path) {
  HintVar var;
  const std::string where = util::StrCat("hint var ", util::Quote(name));
  if (!v.is_object() && !v.is_null()) return Fail(path, where + " must be a mapping");
  const json fields = v.is_object() ? v : json::object();
  for (const auto& [key, value] : fields.items()) {
    const std::string field = util::StrCat(where, " ", key);
    if (key == "type" || key == "format" || key == "description") {
      util::Result<std::string> s = ScalarString(value, path, field);
      if (!s) return s.error();
      if (key == "type") var.type = *s;
      if (key == "format") var.format = *s;
    } else if (key == "required") {
      if (!value.is_boolean() && !value.is_null()) return Fail(path, field + " must be true or false");
      var.required = value.is_boolean() && value.get<bool>();
    } else if (key == "default") {
      if (!value.is_null()) var.default_value = value;
    } else if (key == "required_with" || key == "requiredwith" || key == "required_without" || key == "requiredwithout") {
      util::Result<std::vector<std::string>> list = StringList(value, path, field);
      if (!list) return list.error();
      const bool with = key == "required_with" || key == "requiredwith";
      (with ? var.required_with : var.required_without) = *list;
    } else {
      return Fail(path, util::StrCat(where, " has unknown field ", util::Quote(key),
                                     " (known: type, required, default, description, format, required_with, required_without)"));
    }
  }
  return var;
}

util::Status Validate(const Hint& hint, const std::string& path) {
  for (const auto& [name, v] : hint.vars) {
    const std::string var = util::StrCat("hint var ", util::Quote(name));
    if (v.type != "string" && v.type != "slice" && v.type != "map") {
      return Fail(path, util::StrCat(var, " has invalid type ", util::Quote(v.type), " (must be string, slice, or map)"));
    }
    if (v.required && v.default_value) return Fail(path, var + " has required: true with a default value, which is contradictory");
    if (!v.format.empty()) {
      if (v.type != "string") {
        return Fail(path, util::StrCat(var, " has format ", util::Quote(v.format), " but type is ", util::Quote(v.type),
                                       " (format is only valid for type string)"));
      }
      if (!KnownFormats().count(v.format)) return Fail(path, util::StrCat(var, " has unknown format ", util::Quote(v.format)));
    }
    if (v.required && !v.required_with.empty()) return Fail(path, var + " has required: true with required_with, which is contradictory");
    if (v.required && !v.required_without.empty()) return Fail(path, var + " has required: true with required_without, which is contradictory");
    for (const auto* refs : {&v.required_with, &v.required_without}) {
      for (const std::string& ref : *refs) {
        if (!hint.vars.count(ref)) {
          return Fail(path, util::StrCat(var, " has ", refs == &v.required_with ? "required_with" : "required_without",
                                         " referencing non-existent var ", util::Quote(ref)));
        }
      }
    }
  }
  for (size_t i = 0; i < hint.rules.size(); ++i) {
    const HintRule& rule = hint.rules[i];
    const std::string where = util::StrCat("rule[", i, "]");
    if (rule.type != "oneof_required") return Fail(path, util::StrCat(where, " has unknown type ", util::Quote(rule.type)));
    if (rule.vars.size() < 2) {
      return Fail(path, util::StrCat(where, " (type \"oneof_required\") must have at least 2 vars, got ", rule.vars.size()));
    }
    for (const std::string& ref : rule.vars) {
      if (!hint.vars.count(ref)) return Fail(path, util::StrCat(where, " (type \"oneof_required\") references non-existent var ", util::Quote(ref)));
    }
  }
  return util::Ok();
}

std::string Names(const std::vector<std::string>& names) { return "[" + util::Join(names, " ") + "]"; }

}  // namespace

util::Result<Hint> ParseHint(std::string_view text, const std::string& path) {
  util::YamlOptions options;
  options.source_name = path;
  util::Result<json> doc = util::ParseYamlDocument(text, options);
  if (!doc) return doc.error();
  Hint hint;
  if (doc->is_null()) return hint;
  if (!doc->is_object()) return Fail(path, "must hold a mapping (apiVersion, kind, vars, rules)");
  for (const auto& [key, value] : doc->items()) {
    if (key == "apiVersion" || key == "kind") continue;
    if (key == "vars") {
      if (value.is_null()) continue;
      if (!value.is_object()) return Fail(path, "vars must be a mapping of var names");
      for (const auto& [name, v] : value.items()) {
        util::Result<HintVar> var = ParseVar(name, v, path);
        if (!var) return var.error();
        hint.vars[name] = std::move(*var);
      }
    } else if (key == "rules") {
      if (value.is_null()) continue;
      if (!value.is_array()) return Fail(path, "rules must be a list");
      for (size_t i = 0; i < value.size(); ++i) {
        const json& r = value[i];
        const std::string where = util::StrCat("rule[", i, "]");
        if (!r.is_object()) return Fail(path, where + " must be a mapping");
        HintRule rule;
        for (const auto& [field, fv] : r.items()) {
          if (field == "type" || field == "message") {
            util::Result<std::string> s = ScalarString(fv, path, where + " " + field);
            if (!s) return s.error();
            (field == "type" ? rule.type : rule.message) = *s;
          } else if (field == "vars") {
            util::Result<std::vector<std::string>> list = StringList(fv, path, where + " vars");
            if (!list) return list.error();
            rule.vars = *list;
          } else {
            return Fail(path, util::StrCat(where, " has unknown field ", util::Quote(field), " (known: type, vars, message)"));
          }
        }
        hint.rules.push_back(std::move(rule));
      }
    } else {
      return Fail(path, util::StrCat("unknown field ", util::Quote(key), " (known: apiVersion, kind, vars, rules)"));
    }
  }
  if (util::Status s = Validate(hint, path); !s) return s.error();
  return hint;
}

util::Status CheckVarKinds(const Hint& hint, const std::map<std::string, HelmfileVar>& vars, const std::string& path) {
  for (const auto& [name, hv] : hint.vars) {
    const auto it = vars.find(name);
    if (it == vars.end()) continue;
    const HelmfileVar& v = it->second;
    const bool is_static = v.from == "static";
    const bool slice = !v.static_slice.empty(), map = !v.static_map.empty();
    const std::string var = util::StrCat("hint var ", util::Quote(name));
    if (hv.type == "string" && (slice || map)) return Fail(path, var + " expects type string, but got slice or map value");
    if (hv.type == "slice" && is_static && !slice) return Fail(path, var + " expects type slice, but got non-slice static value");
    if (hv.type == "map" && is_static && !map) return Fail(path, var + " expects type map, but got non-map static value");
  }
  return util::Ok();
}

util::Result<json> ApplyHint(const Hint& hint, const json& given, const std::string& path) {
  json out = given.is_object() ? given : json::object();
  for (const auto& [name, hv] : hint.vars) {
    if (out.contains(name)) continue;
    if (hv.required) return Fail(path, util::StrCat("hint var ", util::Quote(name), " is required but not provided"));
    if (hv.default_value) {
      out[name] = *hv.default_value;
    } else {
      out[name] = hv.type == "slice" ? json::array() : hv.type == "map" ? json::object() : json("");
    }
  }
  const auto provided = [&](const std::string& name) { return given.is_object() && given.contains(name); };
  for (const auto& [name, hv] : hint.vars) {
    if (provided(name)) continue;
    for (const std::string& ref : hv.required_with) {
      if (provided(ref)) {
        return Fail(path, util::StrCat("hint var ", util::Quote(name), " is required because ", util::Quote(ref),
                                       " is provided (required_with)"));
      }
    }
    if (!hv.required_without.empty() && std::none_of(hv.required_without.begin(), hv.required_without.end(), provided)) {
      return Fail(path, util::StrCat("hint var ", util::Quote(name), " is required because none of ",
                                     Names(hv.required_without), " are provided (required_without)"));
    }
  }
  for (const auto& [name, hv] : hint.vars) {
    if (hv.format.empty() || !out[name].is_string() || out[name].get<std::string>().empty()) continue;
    const std::string value = out[name].get<std::string>();
    if (const std::string why = FormatViolation(hv.format, value); !why.empty()) {
      // The value itself is not shown: vars may come from 1Password or the environment.
      return Fail(path, util::StrCat("hint var ", util::Quote(name), " does not match format ", util::Quote(hv.format), ": ", why));
    }
  }
  for (size_t i = 0; i < hint.rules.size(); ++i) {
    const HintRule& rule = hint.rules[i];
    if (std::any_of(rule.vars.begin(), rule.vars.end(), provided)) continue;
    const std::string message = rule.message.empty() ? util::StrCat("at least one of ", Names(rule.vars), " must be provided") : rule.message;
    return Fail(path, util::StrCat("rule[", i, "] (oneof_required): ", message));
  }
  return out;
}

std::string FormatViolation(const std::string& format, const std::string& value) {
  if (format == "hostname") return ValidHostname(value) ? "" : "invalid hostname";
  if (format == "url") return ValidUrl(value) ? "" : "invalid URL (a scheme and a valid request URI are needed)";
  if (format == "email") return ValidEmail(value) ? "" : "invalid email";
  if (format == "ip") return ValidIp(value) ? "" : "invalid IP address";
  if (format == "cidr") return ValidCidr(value) ? "" : "invalid CIDR";
  if (format == "uuid") return ValidUuid(value) ? "" : "invalid UUID";
  if (format == "semver") return ValidSemver(value) ? "" : "invalid semver";
  if (format == "datetime") return ValidDatetime(value) ? "" : "invalid datetime (expected RFC3339)";
  return util::StrCat("unknown format ", util::Quote(format));
}

}  // namespace tazuna::manifest
