#pragma once

#include <string>
#include <string_view>

#include "kube/transport.hpp"
#include "util/error.hpp"

namespace tazuna::kube {

/// Builds the Error for a non-2xx response. A Status body gives kApi with its code, reason and
/// message; 401 gives kUnauthorized. Reason Invalid carries kubectl's complete text:
/// `The <kind> "<name>" is invalid: <field>: <msg>`, or with several causes the message
/// `The <kind> "<name>" is invalid: ` plus `* field: msg` detail lines. A body that is not a Status
/// gives client-go's generic message for the HTTP code (body cut at 2048 bytes).
util::Error ErrorFromResponse(const HttpResponse& response);

/// True when `e` is an API error with this reason (e.g. "NotFound", "Conflict", "AlreadyExists").
bool IsReason(const util::Error& e, std::string_view reason);

/// kTransport error `Unable to connect to the server: <detail>` (kubectl's wording).
util::Error UnableToConnect(std::string_view detail);

}  // namespace tazuna::kube
