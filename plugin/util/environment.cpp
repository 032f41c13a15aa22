#include "util/environment.hpp"

extern char** environ;  // POSIX; read once here

namespace tazuna::util {

Environment Environment::FromProcess() {
  std::map<std::string, std::string> vars;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry(*e);
    const size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    vars.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return Environment(std::move(vars));
}

std::optional<std::string> Environment::Get(const std::string& name) const {
  const auto it = vars_.find(name);
  if (it == vars_.end()) return std::nullopt;
  return it->second;
}

std::string Environment::GetOr(const std::string& name, const std::string& fallback) const {
  const auto it = vars_.find(name);
  return it == vars_.end() || it->second.empty() ? fallback : it->second;
}

}  // namespace tazuna::util
