#include "manifest/render_cache.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {

namespace {

namespace fs = std::filesystem;

bool HoldsSecret(const RenderedManifest& r) {
  for (const auto& o : r.objects) {
    if (util::JsonString(o, "kind") == "Secret" && util::JsonString(o, "apiVersion") == "v1") return true;
  }
  return false;
}

bool ValidDigest(const std::string& digest) {
  return digest.size() == 64 && digest.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

std::optional<RenderedManifest> RenderCache::Load(const std::string& digest) const {
  if (!ValidDigest(digest)) return std::nullopt;
  std::ifstream in(dir_ + "/" + digest + ".json", std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
  const nlohmann::json& objects = util::JsonArray(doc, "objects");
  const nlohmann::json& sources = util::JsonArray(doc, "sources");
  if (doc.is_discarded() || !doc.is_object() || sources.size() != objects.size()) return std::nullopt;
  RenderedManifest r;
  r.name = util::JsonString(doc, "name");
  r.default_namespace = util::JsonString(doc, "defaultNamespace");
  r.always_sync = util::JsonBool(doc, "alwaysSync");
  for (size_t i = 0; i < objects.size(); ++i) {
    if (!objects[i].is_object() || !sources[i].is_string()) return std::nullopt;
    r.objects.push_back(objects[i]);
    r.sources.push_back(sources[i].get<std::string>());
  }
  return r;
}

bool RenderCache::Store(const std::string& digest, const RenderedManifest& rendered) const {
  if (!ValidDigest(digest) || HoldsSecret(rendered) || rendered.sources.size() != rendered.objects.size()) return false;
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return false;
  fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::replace, ec);
  const nlohmann::json doc = {{"name", rendered.name},       {"defaultNamespace", rendered.default_namespace},
                              {"alwaysSync", rendered.always_sync}, {"objects", rendered.objects},
                              {"sources", rendered.sources}};
  const std::string final_path = dir_ + "/" + digest + ".json";
  const std::string tmp =
      util::StrCat(final_path, ".", ::getpid(), ".", std::hash<std::thread::id>{}(std::this_thread::get_id()), ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    fs::permissions(tmp, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ec);
    out << doc.dump();
    if (!out.good()) {
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, final_path, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

}  // namespace tazuna::manifest
