#include "cli/takeover_flag.hpp"

#include <vector>

#include "util/strings.hpp"

namespace tazuna::cli {

namespace {
constexpr char kVariable[] = "TAZUNA_TAKEOVER_MANAGERS";
}  // namespace

void AddTakeoverFlag(FlagSet& flags, std::string& value) {
  std::vector<std::string> names;
  for (const auto& tool : state::kDefaultToolManagers) names.push_back(tool.name);
  flags.String(&value, "takeover-managers", 0,
               util::StrCat("Field managers of earlier tools whose fields tazuna takes over where its manifest sets "
                            "them too, so that a field later dropped from the manifest is removed: names separated "
                            "by commas, 'default' (", util::Join(names, ", "), "), or 'none'. Also ", kVariable,
                            "."));
}

util::Result<state::TakeoverManagers> ResolveTakeoverManagers(const Context& ctx, const std::string& flag) {
  if (!flag.empty()) return state::ParseTakeoverManagers(flag, "--takeover-managers");
  const std::string env = ctx.env.GetOr(kVariable, "");
  if (!env.empty()) return state::ParseTakeoverManagers(env, kVariable);
  return state::DefaultTakeoverManagers();
}

}  // namespace tazuna::cli
