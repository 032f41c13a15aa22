#include "kube/delivery.hpp"

namespace tazuna::kube {

bool NotSent(const util::Error& e) {
  return e.kind == util::ErrorKind::kTransport &&
         (e.reason == kReasonConnectionRefused || e.reason == kReasonConnectFailed || e.reason == kReasonHandshakeReset ||
          e.reason == kReasonWithheld);
}

bool Unconfirmed(const util::Error& e) {
  if (e.reason == kReasonAnswerUnreadable) return true;
  if (e.kind == util::ErrorKind::kApi) return e.http_code >= 500;
  return e.kind == util::ErrorKind::kTransport && (e.reason == kReasonConnectionReset || e.reason == kReasonTimeout ||
                                                   e.reason == kReasonStalled);
}

bool Idempotent(std::string_view method, std::string_view content_type) {
  if (method == "GET" || method == "HEAD" || method == "DELETE") return true;
  return method == "PATCH" && content_type == "application/apply-patch+yaml";
}

}  // namespace tazuna::kube
