#include "cli/complete.hpp"

#include <algorithm>
#include <optional>

#include "cli/build_info.hpp"
#include "cli/command.hpp"
#include "cli/complete_namespaces.hpp"
#include "kube/rest_config.hpp"
#include "manifest/manifest.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

constexpr int kDefault = 0;        // cobra ShellCompDirectiveDefault: the shell completes file names
constexpr int kNoFileComp = 4;     // cobra ShellCompDirectiveNoFileComp
constexpr int kFilterFileExt = 8;  // cobra ShellCompDirectiveFilterFileExt: candidates are extensions

struct Completion {
  std::vector<std::string> candidates;
  int directive = kNoFileComp;
};

std::string FlagValue(const std::vector<std::string>& words, const std::string& long_name, char short_name) {
  std::string value;
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == "--" + long_name || (short_name != 0 && words[i] == std::string("-") + short_name)) {
      value = words[i + 1];
    } else if (util::StartsWith(words[i], "--" + long_name + "=")) {
      value = words[i].substr(long_name.size() + 3);
    }
  }
  return value;
}

// Every value of a repeatable flag (--as-group).
std::vector<std::string> FlagValues(const std::vector<std::string>& words, const std::string& long_name) {
  std::vector<std::string> values;
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "--" + long_name && i + 1 < words.size()) values.push_back(words[i + 1]);
    if (util::StartsWith(words[i], "--" + long_name + "=")) values.push_back(words[i].substr(long_name.size() + 3));
  }
  return values;
}

// The connection flags typed so far (AddConnectionFlags), so -n completes from the cluster the command
// would talk to.
kube::ConfigFlags ConnectionFlags(const std::vector<std::string>& words) {
  kube::ConfigFlags f;
  const std::pair<std::string*, const char*> strings[] = {
      {&f.kubeconfig, "kubeconfig"}, {&f.context, "context"},
      {&f.cluster, "cluster"},       {&f.user, "user"},
      {&f.token, "token"},           {&f.as, "as"},
      {&f.as_uid, "as-uid"},         {&f.certificate_authority, "certificate-authority"},
      {&f.client_certificate, "client-certificate"}, {&f.client_key, "client-key"},
      {&f.tls_server_name, "tls-server-name"},       {&f.request_timeout, "request-timeout"},
      {&f.cache_dir, "cache-dir"}};
  for (const auto& [target, name] : strings) *target = FlagValue(words, name, 0);
  f.server = FlagValue(words, "server", 's');
  f.as_groups = FlagValues(words, "as-group");
  for (const auto& w : words) {
    if (w == "--insecure-skip-tls-verify" || w == "--insecure-skip-tls-verify=true") f.insecure_skip_tls_verify = true;
    if (w == "--insecure-skip-tls-verify=false") f.insecure_skip_tls_verify = false;
  }
  return f;
}

// What -m, -t and -e complete from the tazuna.yaml of -f (else ./tazuna.yaml), loaded with -e.
enum class FromFile { kManifests, kTags, kEnvironments };

std::vector<std::string> FileNames(const std::vector<std::string>& words, util::FileReader& files, FromFile what) {
  std::string file = FlagValue(words, "file", 'f');
  if (file.empty()) file = "tazuna.yaml";
  manifest::LoadOptions load;
  load.environment = what == FromFile::kEnvironments ? "" : FlagValue(words, "environment", 'e');
  load.tool_version = std::string(BuildVersion());
  auto loaded = manifest::LoadTazunaFile(file, load, files);
  std::vector<std::string> out;
  if (!loaded) return out;
  if (what == FromFile::kEnvironments) {
    for (const auto& [name, env] : loaded->environments) out.push_back(name);
  }
  for (const auto& m : loaded->manifests) {
    if (what == FromFile::kManifests) out.push_back(m.name);
    if (what == FromFile::kTags) out.insert(out.end(), m.tags.begin(), m.tags.end());
  }
  return out;
}

// Flags whose value completes without the command: files, names from tazuna.yaml or the kubeconfig.
std::optional<Completion> FlagValueCandidates(Context& ctx, const std::vector<std::string>& words,
                                              const std::string& prev) {
  util::FileReader& files = ctx.files;
  if (prev == "-f" || prev == "--file") return Completion{{"yaml", "yml"}, kFilterFileExt};
  if (prev == "--plan" || prev == "--out" || prev == "--kubeconfig") return Completion{{}, kDefault};
  if (prev == "-m" || prev == "--manifest") return Completion{FileNames(words, files, FromFile::kManifests)};
  if (prev == "-t" || prev == "--tags") return Completion{FileNames(words, files, FromFile::kTags)};
  if (prev == "-e" || prev == "--environment") return Completion{FileNames(words, files, FromFile::kEnvironments)};
  if (prev == "--context" || prev == "--contexts") {  // --contexts: a name is also a glob matching itself
    kube::ConfigFlags flags;
    flags.kubeconfig = FlagValue(words, "kubeconfig", 0);
    return Completion{kube::ListContextNames(flags, ctx.env, files)};
  }
  if (prev == "-n" || prev == "--namespace") return Completion{ClusterNamespaces(ctx, ConnectionFlags(words))};
  if (prev == "-o" || prev == "--output") return Completion{{"json", "name", "table", "wide", "yaml"}};
  if (prev == "--dry-run") return Completion{{"none", "server"}};
  if (prev == "--repair") return Completion{{"all", "missing", "none"}};
  return std::nullopt;
}

std::vector<std::string> Candidates(const std::vector<std::string>& words, const std::string& word) {
  const auto commands = AllCommands();
  // The command is the longest path matching the leading non-flag words.
  const Command* cmd = nullptr;
  size_t depth = 0;
  std::vector<std::string> plain;
  for (const auto& w : words) {
    if (!w.empty() && w[0] == '-') break;
    plain.push_back(w);
  }
  for (const auto& c : commands) {
    const auto parts = util::Split(c.path, ' ');
    if (parts.size() <= plain.size() && std::equal(parts.begin(), parts.end(), plain.begin()) && parts.size() > depth) {
      cmd = &c;
      depth = parts.size();
    }
  }
  if (cmd != nullptr && util::StartsWith(word, "-")) {
    FlagSet flags;
    cmd->add_flags(flags);
    return flags.Names();
  }
  std::vector<std::string> out;
  if (cmd == nullptr || depth == plain.size()) {
    for (const auto& c : commands) {
      const auto parts = util::Split(c.path, ' ');
      if (parts.size() > plain.size() && std::equal(plain.begin(), plain.end(), parts.begin())) {
        out.push_back(parts[plain.size()]);
      }
    }
  }
  return out;
}

// The positional argument of `state history` (a revision id) and `state forget` (a state key), read from the
// cluster the command would talk to; nullopt for other words.
std::optional<Completion> ArgumentCandidates(Context& ctx, const std::vector<std::string>& words, const std::string& word) {
  if (util::StartsWith(word, "-") || words.size() < 2 || words[0] != "state") return std::nullopt;
  if (words[1] == "history") {
    const bool has_revision = std::any_of(words.begin() + 2, words.end(), [](const std::string& w) { return w[0] != '-'; });
    if (has_revision) return Completion{};  // one REVISION at most (a flag value counts: no candidates is safe)
    return Completion{ClusterRevisions(ctx, ConnectionFlags(words))};
  }
  if (words[1] == "forget" && std::find(words.begin(), words.end(), "--orphaned") == words.end()) {
    return Completion{ClusterStateKeys(ctx, ConnectionFlags(words), FlagValue(words, "manifest", 'm'))};
  }
  return std::nullopt;
}

// `state plan show PLAN`: the argument is a file name, which the shell completes.
bool CompletesPlanFile(const std::vector<std::string>& words, const std::string& word) {
  const std::vector<std::string> path = {"state", "plan", "show"};
  return !util::StartsWith(word, "-") && words.size() >= path.size() && std::equal(path.begin(), path.end(), words.begin());
}

}  // namespace

int Complete(Context& ctx, std::vector<std::string> args) {
  std::ostream& out = ctx.out;
  if (!args.empty() && args[0] == "__complete") args.erase(args.begin());
  const std::string word = args.empty() ? "" : args.back();
  if (!args.empty()) args.pop_back();
  std::string prev = args.empty() ? "" : args.back();
  std::string prefix;  // --flag=value: the value completes, printed after "--flag=" as cobra does
  std::string typed = word;
  if (const size_t eq = word.find('='); util::StartsWith(word, "--") && eq != std::string::npos) {
    prev = word.substr(0, eq);
    prefix = word.substr(0, eq + 1);
    typed = word.substr(eq + 1);
  }
  std::optional<Completion> c = FlagValueCandidates(ctx, args, prev);
  if (!c && prefix.empty() && CompletesPlanFile(args, word)) c = Completion{{}, kDefault};
  if (!c && prefix.empty()) c = ArgumentCandidates(ctx, args, word);
  if (!c && prefix.empty()) c = Completion{Candidates(args, word)};
  if (!c) c = Completion{};
  std::sort(c->candidates.begin(), c->candidates.end());
  c->candidates.erase(std::unique(c->candidates.begin(), c->candidates.end()), c->candidates.end());
  for (const auto& candidate : c->candidates) {
    if (c->directive == kFilterFileExt) {
      out << candidate << '\n';
    } else if (util::StartsWith(candidate, typed)) {
      out << prefix << candidate << '\n';
    }
  }
  out << ':' << c->directive << '\n';
  return 0;
}

}  // namespace tazuna::cli
