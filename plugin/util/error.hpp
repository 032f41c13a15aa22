#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tazuna::util {

/// What went wrong, coarse enough for cli::ReportError to pick wording and exit code.
enum class ErrorKind {
  kUsage,        ///< bad flags or arguments
  kInput,        ///< bad tazuna.yaml, manifests, kubeconfig contents
  kConfig,       ///< kubeconfig resolution ("Error in configuration: ...")
  kNotFound,     ///< a file or API object does not exist
  kConflict,     ///< optimistic-concurrency conflict or lock held
  kApi,          ///< the API server answered with a Status (see code/reason)
  kUnauthorized, ///< 401 after credential refresh
  kTransport,    ///< could not reach the server, timeout, TLS failure
  kToolMissing,  ///< an external tool (kustomize, helm, op, oras, git) is not on PATH
  kNotReady,     ///< an applied object failed or did not become ready in time (readiness waits)
  kInternal,     ///< a bug or an unexpected condition
};

/// A failure as a value. `message` is one line; `detail_lines` are extra lines printed after it
/// (the multi-line Invalid form, tool stderr, hints).
struct Error {
  ErrorKind kind = ErrorKind::kInternal;
  std::string message;
  int http_code = 0;                     ///< for kApi: the HTTP status
  std::string reason;                    ///< for kApi: Status.reason (NotFound, Forbidden, ...)
  std::vector<std::string> detail_lines; ///< printed after the message, one per line
  std::string hint;                      ///< optional advice, printed last
  bool part_way = false;                 ///< the command stopped after it had written (exit 3, not 2)

  /// Returns a copy with `prefix: ` put before the message (context added once per layer).
  [[nodiscard]] Error WithContext(std::string_view prefix) const;
  /// Returns a copy marked part_way: what failed came after the command's first write.
  [[nodiscard]] Error PartWay() const;
  /// Whether the write that failed so may have landed all the same: a lost answer (transport, internal) may
  /// have; the server's refusal (an API status, 401, a conflict) did not.
  [[nodiscard]] bool MayHaveLanded() const { return kind == ErrorKind::kTransport || kind == ErrorKind::kInternal; }
  bool operator==(const Error&) const = default;
};

/// Shorthand constructor.
Error MakeError(ErrorKind kind, std::string message);

}  // namespace tazuna::util
