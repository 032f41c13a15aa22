#include "kube/redact.hpp"

#include <nlohmann/json.hpp>

#include "util/json_get.hpp"
#include "util/secret_mask.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {
namespace {

using nlohmann::json;
using util::SecretBy;

bool MaskExecCredential(json& obj) {
  if (util::JsonString(obj, "kind") != "ExecCredential" || !util::JsonField(obj, "status").is_object()) return false;
  for (auto& [key, value] : obj["status"].items()) {
    if (key != "expirationTimestamp") value = util::kSecretMask;
  }
  return true;
}

// A tazuna state ConfigMap's entry for a core Secret (data key `<manifest>____v1__Secret__...`, or a
// hashed key whose value names `.../v1/Secret/...`) may hold the Go tool's plain SHA-256 of the Secret,
// from which its values can be brute-forced: its contentHash is not logged. (The one piece of the state
// format known here; the kube layer cannot ask the state layer.)
bool MaskStateSecretHashes(json& obj) {
  if (util::JsonString(obj, "kind") != "ConfigMap" && !util::JsonField(obj, "data").is_object()) return false;
  auto data = obj.find("data");
  if (data == obj.end() || !data->is_object()) return false;
  bool changed = false;
  for (auto& [key, value] : data->items()) {
    if (!value.is_string() || value.get_ref<const std::string&>().find("contentHash") == std::string::npos) continue;
    json entry = json::parse(value.get<std::string>(), nullptr, false);
    const bool secret = key.find("____v1__Secret__") != std::string::npos ||
                        util::JsonString(entry, "key").find("//v1/Secret/") != std::string::npos;
    if (!secret || !util::JsonField(entry, "contentHash").is_string()) continue;
    entry["contentHash"] = util::kSecretMask;
    value = entry.dump();
    changed = true;
  }
  return changed;
}

bool MaskSecret(json& obj, SecretBy by) {
  if (!obj.is_object()) return false;
  bool changed = util::MaskSecretValues(obj, by);
  changed = MaskExecCredential(obj) || changed;
  changed = MaskStateSecretHashes(obj) || changed;
  auto items = obj.find("items");
  if (items != obj.end() && items->is_array()) {
    // The items of a SecretList response carry no kind of their own: they are Secrets all the same.
    const SecretBy item_by = util::JsonString(obj, "kind") == "SecretList" ? SecretBy::kForce : by;
    for (auto& item : *items) changed = MaskSecret(item, item_by) || changed;
  }
  return changed;
}

std::vector<std::string> RequestSecretValues(std::string_view path, std::string_view request_body) {
  if (request_body.empty() || util::NestsDeeperThan(request_body, util::kMaxJsonDepth)) return {};
  const json sent = json::parse(request_body, nullptr, false);
  return util::SecretValues(sent, IsSecretPath(path) ? SecretBy::kForce : SecretBy::kKind);
}

}  // namespace

std::string RedactHeader(std::string_view name, std::string_view value) {
  const std::string lower = util::ToLower(name);
  if (lower != "authorization" && lower != "proxy-authorization") return std::string(value);
  const size_t space = value.find(' ');
  if (space == std::string_view::npos) return "<masked>";
  return std::string(value.substr(0, space)) + " <masked>";
}

bool IsSecretPath(std::string_view path) {
  if (const size_t scheme = path.find("://"); scheme != std::string_view::npos) {
    const size_t slash = path.find('/', scheme + 3);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash);
  }
  path = path.substr(0, path.find('?'));
  const std::vector<std::string> parts = util::Split(path, '/');
  // The server URL may have a path of its own (a proxy's /k8s/clusters/c-1): try every api root in it.
  for (size_t root = 1; root < parts.size(); ++root) {
    size_t at = parts[root] == "api" ? root + 2 : parts[root] == "apis" ? root + 3 : 0;  // after the version
    if (at == 0 || at >= parts.size()) continue;
    if (parts[at] == "namespaces" && at + 2 < parts.size()) at += 2;  // /namespaces/NS/<resource>
    if (parts[at] == "secrets") return true;
  }
  return false;
}

std::string RedactBody(std::string_view path, std::string_view body, std::string_view request_body) {
  const bool secret_path = IsSecretPath(path);
  if (util::NestsDeeperThan(body, util::kMaxJsonDepth)) {
    return util::StrCat("<", body.size(), " bytes nesting deeper than ", util::kMaxJsonDepth, " levels, not shown>");
  }
  const std::vector<std::string> sent = RequestSecretValues(path, request_body);
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded()) {
    if (secret_path && !body.empty()) return util::StrCat("<", body.size(), " bytes of a Secret path's non-JSON body>");
    return util::ScrubValues(std::string(body), sent);
  }
  const bool masked = MaskSecret(doc, secret_path ? SecretBy::kForce : SecretBy::kKind);
  if (!masked && sent.empty()) return std::string(body);
  return util::ScrubValues(masked ? doc.dump() : std::string(body), sent);
}

std::string ScrubSent(std::string_view path, std::string_view request_body, std::string text) {
  const std::vector<std::string> sent = RequestSecretValues(path, request_body);
  return sent.empty() ? text : util::ScrubValues(std::move(text), sent);
}

HttpResponse RedactResponse(std::string_view path, std::string_view request_body, HttpResponse response) {
  if (!IsSecretPath(path) && RequestSecretValues(path, request_body).empty()) return response;
  response.body = RedactBody(path, response.body, request_body);
  return response;
}

}  // namespace tazuna::kube
