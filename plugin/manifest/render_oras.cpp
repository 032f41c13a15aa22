// type oras: `oras pull` into the cache, then the delegate renderer on the pulled files.
#include "manifest/renderers.hpp"
#include "manifest/tool.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

// One cache directory per reference: every byte outside [A-Za-z0-9._-] becomes '_'.
std::string SanitizeReference(const std::string& reference) {
  std::string out;
  for (const char c : reference) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '-' || c == '_';
    out += keep ? c : '_';
  }
  return out;
}

util::Status CheckTarget(const std::string& target) {
  if (!target.empty() && target.front() == '/') {
    return util::MakeError(util::ErrorKind::kInput,
                           util::StrCat("oras.target ", util::Quote(target), " must be relative"));
  }
  for (const std::string& part : util::Split(target, '/')) {
    if (part == "..") {
      return util::MakeError(util::ErrorKind::kInput,
                             util::StrCat("oras.target ", util::Quote(target), " must stay inside the artifact"));
    }
  }
  return util::Ok();
}

}  // namespace

util::Result<Documents> RenderOras(const Manifest& manifest, const TazunaFile& file, RenderContext& ctx) {
  const OrasOptions& o = manifest.oras;
  if (util::Status s = CheckTarget(o.target); !s) return s.error();
  const std::string cache = ctx.cache_dir.empty() ? DefaultCacheDir(ctx.env) : ctx.cache_dir;
  const std::string dir = util::JoinPath(util::JoinPath(cache, "oras"), SanitizeReference(o.reference));
  std::vector<std::string> argv = {"oras", "pull", o.reference, "--output", dir};
  if (o.plain_http) argv.push_back("--plain-http");
  if (o.insecure_skip_verify) argv.push_back("--insecure");
  util::Result<std::string> pulled = RunTool({argv, "", "", {}}, ctx);
  if (!pulled) {
    if (pulled.error().kind == util::ErrorKind::kToolMissing) {
      return util::MakeError(util::ErrorKind::kToolMissing, "oras: \"oras\" not found on PATH");
    }
    return pulled.error();
  }
  const std::string path = o.target.empty() ? dir : util::JoinPath(dir, o.target);
  if (o.delegate_type == "helmfile") return RenderHelmfile(path, o.helmfile, file, ctx);
  return RenderKustomize(path, ctx);
}

}  // namespace tazuna::manifest
