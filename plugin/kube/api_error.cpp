#include "kube/api_error.hpp"

#include <nlohmann/json.hpp>

#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {
namespace {

using util::StrCat;

constexpr size_t kMaxBodyInMessage = 2048;  // client-go maxUnstructuredResponseTextBytes

struct Generic {
  const char* reason;
  std::string message;
};

// client-go's NewGenericServerResponse wording for a response that is not a Status.
Generic GenericFor(int code, const std::string& body) {
  const std::string quoted = util::Quote(body.substr(0, kMaxBodyInMessage));
  switch (code) {
    case 400: return {"BadRequest", "the server rejected our request for an unknown reason"};
    case 401: return {"Unauthorized", "the server has asked for the client to provide credentials"};
    case 403: return {"Forbidden", body.substr(0, kMaxBodyInMessage)};
    case 404: return {"NotFound", "the server could not find the requested resource"};
    case 405: return {"MethodNotAllowed", "the server does not allow this method on the requested resource"};
    case 406: return {"NotAcceptable", "the server was unable to respond with a content type that the client supports"};
    case 409: return {"Conflict", "the server reported a conflict"};
    case 415: return {"UnsupportedMediaType", "the server was unable to respond with a content type that the client supports"};
    case 422: return {"Invalid", "the server rejected our request due to an error in our request"};
    case 429: return {"TooManyRequests", "the server has received too many requests and has asked us to try again later"};
    case 503: return {"ServiceUnavailable", "the server is currently unable to handle the request"};
    case 504: return {"Timeout", "the server was unable to return a response in the time allotted, but may still be processing the request"};
    case 500: return {"InternalError", StrCat("an error on the server (", quoted, ") has prevented the request from succeeding")};
    default: return {"", StrCat("an error on the server (", quoted, ") has prevented the request from succeeding")};
  }
}

std::string CauseText(const nlohmann::json& cause) {
  const std::string field = util::JsonString(cause, "field");
  const std::string message = util::JsonString(cause, "message");
  return util::Printable(field.empty() ? message : StrCat(field, ": ", message));
}

// kubectl's checkErr rendering of an Invalid status (one line, or bullets for several causes).
void RenderInvalid(const nlohmann::json& details, util::Error* e) {
  std::string head = "The request is invalid";
  const std::string kind = util::JsonString(details, "kind");
  const std::string name = util::JsonString(details, "name");
  if (!kind.empty() || !name.empty()) head = StrCat("The ", kind, " ", util::Quote(name), " is invalid");
  const nlohmann::json& causes = util::JsonArray(details, "causes");
  if (causes.empty()) {
    e->message = head;
  } else if (causes.size() == 1) {
    e->message = StrCat(head, ": ", CauseText(causes[0]));
  } else {
    e->message = head + ": ";
    for (const auto& c : causes) e->detail_lines.push_back("* " + CauseText(c));
  }
}

}  // namespace

util::Error ErrorFromResponse(const HttpResponse& response) {
  util::Error e = util::MakeError(util::ErrorKind::kApi, "");
  e.http_code = response.status;
  const nlohmann::json body = nlohmann::json::parse(response.body, nullptr, false);
  const bool is_status = util::JsonString(body, "kind") == "Status";
  if (is_status) {
    e.reason = util::JsonString(body, "reason");
    e.message = util::JsonString(body, "message");
    const int64_t code = util::JsonInt(body, "code");
    if (code >= 100 && code <= 599) e.http_code = static_cast<int>(code);
    if (e.reason == "Invalid" && util::JsonField(body, "details").is_object()) {
      RenderInvalid(body["details"], &e);
    }
  } else {
    Generic g = GenericFor(response.status, response.body);
    e.reason = g.reason;
    e.message = std::move(g.message);
  }
  if (response.status == 401) e.kind = util::ErrorKind::kUnauthorized;
  if (e.message.empty()) e.message = GenericFor(response.status, response.body).message;
  // The server's words are printed on one line: control characters are escaped.
  e.message = util::Printable(e.message);
  e.reason = util::Printable(e.reason);
  return e;
}

bool IsReason(const util::Error& e, std::string_view reason) {
  return (e.kind == util::ErrorKind::kApi || e.kind == util::ErrorKind::kUnauthorized) && e.reason == reason;
}

util::Error UnableToConnect(std::string_view detail) {
  return util::MakeError(util::ErrorKind::kTransport, StrCat("Unable to connect to the server: ", detail));
}

}  // namespace tazuna::kube
