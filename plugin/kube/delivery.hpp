#pragma once

#include <string_view>

#include "util/error.hpp"

namespace tazuna::kube {

/// Reasons a Transport gives a kTransport error, by what is known of the request's delivery.
/// Never reached the server: refused, no route or name, TLS handshake not finished.
inline constexpr char kReasonConnectionRefused[] = "ConnectionRefused";
inline constexpr char kReasonConnectFailed[] = "ConnectFailed";
/// The connection was dropped during the TLS handshake (reset or closed, no alert): a fault on the way.
inline constexpr char kReasonHandshakeReset[] = "HandshakeReset";
/// The request's own guard (HttpRequest::may_send) said no just before it would have gone out: not sent.
inline constexpr char kReasonWithheld[] = "Withheld";
/// The connection broke after the request may have been sent (reset, closed, HTTP/2 stream error).
inline constexpr char kReasonConnectionReset[] = "ConnectionReset";
/// No answer within the request's time limit (--request-timeout or a deadline); it may have been sent.
inline constexpr char kReasonTimeout[] = "Timeout";
/// Nothing came back for a long time (the stall detector cut the transfer); it may have been sent.
inline constexpr char kReasonStalled[] = "Stalled";
/// The server answered, but the answer could not be read (too large, nested too deep, not JSON, a
/// transfer error this client does not know): a write it answered may have been applied.
inline constexpr char kReasonAnswerUnreadable[] = "AnswerUnreadable";

/// True when the request never reached the server: sending it again is safe whatever its method.
bool NotSent(const util::Error& e);

/// True when a write failed without an answer that says whether the server applied it: the connection
/// broke after the request may have been sent, it timed out or stalled, or the server answered 5xx (an
/// etcd timeout commits or not). Only reading the object back tells.
bool Unconfirmed(const util::Error& e);

/// True for requests the server applies at most once however often they are sent: GET, HEAD, DELETE
/// (a repeat finds the object gone or its preconditions changed) and server-side apply PATCHes (the
/// same apply twice is the same result). POST and PUT are not: a create or a conditional replace sent
/// again after it was applied fails (AlreadyExists, Conflict) or applies twice.
bool Idempotent(std::string_view method, std::string_view content_type);

}  // namespace tazuna::kube
