#include "cli/fleet_plan.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

namespace fs = std::filesystem;

constexpr char kKind[] = "FleetPlan";

util::Error Usage(const std::string& message) { return util::MakeError(util::ErrorKind::kUsage, message); }

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  f.flush();
  return static_cast<bool>(f);
}

}  // namespace

util::Result<std::unique_ptr<FleetPlanFiles>> FleetPlanFiles::Make(const std::vector<std::string>& contexts) {
  std::string tmpl = (fs::temp_directory_path() / "tazuna-fleet-plan-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    return util::MakeError(util::ErrorKind::kInput, "cannot make a directory for the contexts' plans");
  }
  auto out = std::unique_ptr<FleetPlanFiles>(new FleetPlanFiles());
  out->dir_ = tmpl;
  for (size_t i = 0; i < contexts.size(); ++i) out->by_context_[contexts[i]] = util::StrCat(tmpl, "/", i, ".plan");
  return out;
}

FleetPlanFiles::~FleetPlanFiles() {
  std::error_code ec;
  if (!dir_.empty()) fs::remove_all(dir_, ec);
}

util::Result<std::unique_ptr<FleetPlanFiles>> FleetPlanFiles::Split(util::FileReader& files,
                                                                    const std::string& path,
                                                                    const std::vector<std::string>& contexts) {
  auto text = files.ReadFile(path);
  if (!text) return text.error().WithContext("--plan " + path);
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("kind", "") != kKind || !doc.contains("plans") ||
      !doc["plans"].is_array()) {
    return Usage("--plan " + path +
                 " is not a plan over contexts: make it with state diff --out and the same --contexts");
  }
  auto out = Make(contexts);
  if (!out) return out.error();
  std::vector<std::string> in_plan;
  for (const auto& p : doc["plans"]) {
    const bool named = p.is_object() && p.value("context", nlohmann::json()).is_string();
    const std::string context = named ? p["context"].get<std::string>() : "";
    in_plan.push_back(context);
    const auto it = (*out)->by_context_.find(context);
    if (it == (*out)->by_context_.end() || !p.value("plan", nlohmann::json()).is_string()) continue;
    if (!WriteFile(it->second, p["plan"].get<std::string>())) {
      return util::MakeError(util::ErrorKind::kInput, "cannot write " + it->second);
    }
  }
  std::vector<std::string> want = contexts;
  std::sort(want.begin(), want.end());
  std::sort(in_plan.begin(), in_plan.end());
  if (want != in_plan) {
    return Usage(util::StrCat("--plan ", path, " was made for contexts ", util::Join(in_plan, ", "), ", not ",
                              util::Join(want, ", ")));
  }
  return out;
}

util::Status FleetPlanFiles::Join(util::FileReader& files, const std::vector<std::string>& contexts,
                                  const std::string& path) const {
  nlohmann::json plans = nlohmann::json::array();
  for (const auto& c : contexts) {
    auto text = files.ReadFile(FileOf(c));
    if (!text) {
      return util::MakeError(util::ErrorKind::kInput, util::StrCat("no plan was made for context ", util::Quote(c)));
    }
    plans.push_back({{"context", c}, {"plan", *text}});
  }
  const nlohmann::json doc = {{"apiVersion", "tazuna.pepabo.com/v1"}, {"kind", kKind}, {"plans", plans}};
  const std::string tmp = path + ".tmp";
  if (!WriteFile(tmp, doc.dump(4) + "\n") || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return util::MakeError(util::ErrorKind::kInput, "write plan " + path);
  }
  return util::Ok();
}

std::vector<std::string> WithFlagValue(std::vector<std::string> args, const std::string& flag,
                                       const std::string& value) {
  for (size_t i = 0; i < args.size() && args[i] != "--"; ++i) {
    if (args[i] == flag && i + 1 < args.size()) {
      args[i + 1] = value;
    } else if (util::StartsWith(args[i], flag + "=")) {
      args[i] = flag + "=" + value;
    }
  }
  return args;
}

}  // namespace tazuna::cli
