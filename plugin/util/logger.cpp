#include "util/logger.hpp"

namespace tazuna::util {

void Logger::Log(int level, std::string_view msg) {
  if (!Enabled(level)) return;
  std::lock_guard<std::mutex> lock(mu_);
  err_ << msg << '\n';
  err_.flush();
}

void Logger::Warning(std::string_view msg) {
  std::lock_guard<std::mutex> lock(mu_);
  err_ << "Warning: " << msg << '\n';
  err_.flush();
}

}  // namespace tazuna::util
