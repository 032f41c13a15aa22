#pragma once

#include <string>
#include <string_view>

#include "kube/transport.hpp"

namespace tazuna::kube {

/// A header value safe to log: Authorization (and Proxy-Authorization) keep only the scheme,
/// e.g. "Bearer <masked>"; other headers are returned unchanged.
std::string RedactHeader(std::string_view name, std::string_view value);

/// Whether a request path (or URL; the query is ignored) addresses Secrets: the collection `secrets` of
/// a group version, in a namespace or across all, or one Secret in it and its subresources.
bool IsSecretPath(std::string_view path);

/// A body safe to log. JSON: every Secret in it (by kind, and every object or list item of any kind
/// when `path` is a Secret path: PartialObjectMetadata, Status, ...) has its data/stringData values and
/// the values in JSON copies of it in annotations (last-applied-configuration) masked; an
/// ExecCredential's status fields are masked; so is the contentHash of a tazuna state entry for a Secret
/// (it may be the Go tool's plain SHA-256 of the Secret); then every value of a Secret in `request_body` (the body
/// sent) is scrubbed from the text, as a server may echo it in a message. A non-JSON body on a Secret
/// path is not shown at all; any other is returned unchanged.
std::string RedactBody(std::string_view path, std::string_view body, std::string_view request_body = "");

/// `text` (a warning, a header) with every value of a Secret in `request_body` scrubbed (util::ScrubValues),
/// as a server may quote what it was sent; unchanged when the request carried no Secret.
std::string ScrubSent(std::string_view path, std::string_view request_body, std::string text);

/// The response with its body redacted (RedactBody) when the request was about Secrets (by path, or
/// by a Secret `request_body`), for building the error a user sees; otherwise unchanged.
HttpResponse RedactResponse(std::string_view path, std::string_view request_body, HttpResponse response);

}  // namespace tazuna::kube
