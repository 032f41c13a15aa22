#include "cli/wait_output.hpp"

#include <nlohmann/json.hpp>

#include "cli/pipeline.hpp"

namespace tazuna::cli {

WaitStyle WaitStyleFor(const std::string& output, bool live) {
  if (output == "json") return WaitStyle::kJson;
  return live ? WaitStyle::kLive : WaitStyle::kLines;
}

std::string WaitObjectName(const state::WaitItem& item) {
  std::string out = ObjectName(item.key.group, item.key.kind, item.key.name);
  if (!item.key.namespace_name.empty()) out += " -n " + item.key.namespace_name;
  return out;
}

namespace {

std::string StateText(const state::WaitItem& item) {
  const std::string& message = item.last.message;
  switch (item.last.state) {
    case state::ReadyState::kReady: return message.empty() ? "ready" : "ready (" + message + ")";
    case state::ReadyState::kFailed: return "failed: " + message;
    case state::ReadyState::kNotFound: return "not found";
    case state::ReadyState::kInProgress: break;
  }
  return item.timed_out ? "timed out: " + message : message;
}

}  // namespace

std::string WaitEventJson(const state::WaitUpdate& update) {
  const state::WaitItem& item = *update.item;
  nlohmann::json event = {{"type", "wait"},
                          {"manifest", item.manifest},
                          {"apiVersion", item.key.ApiVersion()},
                          {"kind", item.key.kind},
                          {"namespace", item.key.namespace_name},
                          {"name", item.key.name},
                          {"state", state::ReadyStateName(item.last.state)},
                          {"message", item.last.message},
                          {"timedOut", item.timed_out},
                          {"waiting", update.waiting},
                          {"total", update.total}};
  if (!item.last.warning.empty()) event["warning"] = item.last.warning;
  return event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void WaitPrinter::Update(const state::WaitUpdate& update) {
  const state::WaitItem& item = *update.item;
  if (style_ == WaitStyle::kJson) {
    err_ << WaitEventJson(update) << '\n' << std::flush;
    return;
  }
  if (!item.last.warning.empty()) {
    Done();
    err_ << "warning: " << WaitObjectName(item) << ": " << item.last.warning << '\n' << std::flush;
  }
  if (style_ == WaitStyle::kLines) {
    err_ << "wait: " << WaitObjectName(item) << ": " << StateText(item) << '\n' << std::flush;
    return;
  }
  Live(update);
}

void WaitPrinter::Live(const state::WaitUpdate& update) {
  const state::WaitItem* shown = nullptr;
  for (const auto& item : *update.items) {
    if (state::StillWaiting(item)) {
      shown = &item;
      break;
    }
  }
  if (shown == nullptr) {
    Done();
    return;
  }
  // The live line keeps to the short form ("2/3 updated, 1 available"); the condition behind it goes to
  // the final error.
  const std::string& message = shown->last.message;
  err_ << "\r\033[Kwaiting for " << update.waiting << " of " << update.total << " objects: " << WaitObjectName(*shown)
       << " (" << message.substr(0, message.find(" (")) << ")" << std::flush;
  drawn_ = true;
}

void WaitPrinter::Done() {
  if (drawn_) err_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

}  // namespace tazuna::cli
