#include "cli/wait_output.hpp"

#include "cli/pipeline.hpp"

namespace tazuna::cli {

std::string WaitObjectName(const state::WaitItem& item) {
  std::string out = ObjectName(item.key.group, item.key.kind, item.key.name);
  if (!item.key.namespace_name.empty()) out += " -n " + item.key.namespace_name;
  return out;
}

namespace {

std::string StateText(const state::WaitItem& item) {
  if (item.last.state == state::ReadyState::kReady) return "ready";
  if (item.last.state == state::ReadyState::kFailed) return "failed: " + item.last.message;
  if (item.timed_out) return "timed out: " + item.last.message;
  return item.last.message;
}

}  // namespace

void WaitPrinter::Update(const state::WaitUpdate& update) {
  if (!live_) {
    err_ << "wait: " << WaitObjectName(*update.item) << ": " << StateText(*update.item) << '\n' << std::flush;
    return;
  }
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
  // The live line keeps to the short form ("1/2 available"); the condition behind it goes to the final error.
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
