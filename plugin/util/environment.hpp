#pragma once

#include <map>
#include <optional>
#include <string>

namespace tazuna::util {

/// A snapshot of the process environment, taken once in main (no getenv at the point of use).
class Environment {
 public:
  Environment() = default;
  explicit Environment(std::map<std::string, std::string> vars) : vars_(std::move(vars)) {}
  /// Snapshot of `environ`.
  static Environment FromProcess();

  /// The value, or nullopt when unset.
  std::optional<std::string> Get(const std::string& name) const;
  /// The value, or `fallback` when unset or empty.
  std::string GetOr(const std::string& name, const std::string& fallback) const;
  void Set(const std::string& name, std::string value) { vars_[name] = std::move(value); }
  const std::map<std::string, std::string>& vars() const { return vars_; }

 private:
  std::map<std::string, std::string> vars_;
};

}  // namespace tazuna::util
