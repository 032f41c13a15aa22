#pragma once

#include <string>

#include "kube/client.hpp"

namespace tazuna::kube {

/// Which version of a group's kind the server serves now, for reading a recorded object.
struct ServedVersion {
  std::string version;  ///< the recorded one when served, else the group's preferred one; empty otherwise
  bool gone = false;    ///< nothing serves the kind (and its group's discovery answered): no object of it exists
  std::string error;    ///< discovery could not answer (unreachable, the group's API unavailable)
};

/// Looks `group`/`kind` up in discovery as the server answers now (not the disk cache), `version` first. A
/// kind nothing serves is `gone` only when its group's discovery is not stale (an aggregated API that is down
/// serves nothing now, yet its objects live) and no CRD names it (one with every version unserved keeps its
/// custom resources stored).
ServedVersion ServedVersionOf(Client& client, const std::string& group, const std::string& version,
                              const std::string& kind);

}  // namespace tazuna::kube
