#include "kube/settled_write.hpp"

#include "kube/delivery.hpp"
#include "kube/retry.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {
namespace {

using nlohmann::json;
using util::StrCat;

std::string Meta(const json& object, const char* field) {
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  const auto it = meta->find(field);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : "";
}

ObjectRef RefOf(const json& object) {
  return {object.value("apiVersion", ""), object.value("kind", ""), Meta(object, "namespace"), Meta(object, "name")};
}

// "configmap ns/name"
std::string Describe(const json& object) {
  std::string where = Meta(object, "namespace");
  where += where.empty() ? "" : "/";
  return StrCat(util::ToLower(object.value("kind", "object")), " ", where, Meta(object, "name"));
}

util::Error TakenByOther(const json& object, bool create) {
  return util::MakeError(util::ErrorKind::kConflict,
                         StrCat(Describe(object), " was ", create ? "created" : "changed", " by another writer"));
}

}  // namespace

IsMine SameData(const json& object) {
  // A server's answer of any shape is compared, never trusted to be an object.
  const json* data = &util::JsonObject(object, "data");
  return [data](const json& live) { return util::JsonObject(live, "data") == *data; };
}

util::Result<json> WriteSettled(Client& client, const json& object, const IsMine& mine, const RequestOptions& options,
                                WriteFate* fate) {
  WriteFate ignored = WriteFate::kUnknown;
  WriteFate& out = fate != nullptr ? *fate : ignored;
  const std::string version = Meta(object, "resourceVersion");
  const bool create = version.empty();
  bool pending = false;  // an earlier copy's fate is open: absent when read, it might still land
  util::Error last;
  for (int attempt = 0; attempt < kSettleAttempts; ++attempt) {
    if (attempt > 0) {
      const auto wait = Backoff(attempt - 1);  // the fault that lost the answer may still last
      if (options.deadline && client.clock().Steady() + wait >= *options.deadline) break;
      client.clock().SleepFor(wait);
    }
    auto written = create ? client.Create(object, options) : client.Update(object, options);
    out = WriteFate::kWritten;
    if (written) return written;
    last = written.error();
    const bool taken = IsReason(last, "Conflict") || IsReason(last, "AlreadyExists");
    if (!taken && !Unconfirmed(last)) {
      out = pending ? WriteFate::kUnknown : WriteFate::kNotWritten;  // refused, or never sent
      return last;
    }
    pending = pending || Unconfirmed(last);
    auto live = client.Get(RefOf(object), RequestOptions{DryRun::kNone, Fence::kSkip, options.deadline});
    const bool absent = !live && IsReason(live.error(), "NotFound");
    if (!live && !absent) {
      out = WriteFate::kUnknown;
      last.message += StrCat(" (and reading it back to see whether it was applied failed: ", live.error().message, ")");
      return last;
    }
    const bool stored = live && mine(*live);
    const bool unchanged = !stored && (create ? absent : (live && Meta(*live, "resourceVersion") == version));
    client.log().Log(2, StrCat(create ? "create of " : "replace of ", Describe(object), " unanswered (", last.message,
                               "); read back: ", stored ? "stored" : unchanged ? "not stored, sending again" : "another writer's"));
    if (stored) return *live;
    if (!unchanged) {
      out = WriteFate::kNotWritten;
      return TakenByOther(object, create);
    }
  }
  out = WriteFate::kUnknown;
  return last;
}

}  // namespace tazuna::kube
