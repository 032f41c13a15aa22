// kubectl tazuna version [-o json]
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/print/list.hpp"

#ifndef TAZUNA_VERSION
#define TAZUNA_VERSION "0.0.0-dev"
#endif
#ifndef TAZUNA_GIT_COMMIT
#define TAZUNA_GIT_COMMIT "unknown"
#endif

namespace tazuna::cli {

namespace {

struct VersionOptions {
  ConnectionOptions connection;
  std::string output;
  bool client_only = false;
};

nlohmann::json ClientVersion() {
  return {{"gitVersion", "v" TAZUNA_VERSION}, {"gitCommit", TAZUNA_GIT_COMMIT}, {"platform", "linux/amd64"}};
}

util::Result<int> RunVersion(Context& ctx, const VersionOptions& o) {
  if (auto st = ValidateOutput(o.output, {"", "json", "yaml"}); !st) return st.error();
  nlohmann::json doc = {{"clientVersion", ClientVersion()}};
  std::string note;
  if (!o.client_only) {
    auto session = OpenSession(ctx, o.connection);
    auto server = session ? (*session)->client->GetPath("/version") : util::Result<nlohmann::json>(session.error());
    if (server) {
      doc["serverVersion"] = *server;
    } else {
      note = server.error().message;
    }
  }
  if (!o.output.empty()) {
    print::PrintObject(ctx.out, doc, o.output);
  } else {
    ctx.out << "Client Version: v" TAZUNA_VERSION " (commit " TAZUNA_GIT_COMMIT ")\n";
    if (doc.contains("serverVersion")) {
      ctx.out << "Server Version: " << doc["serverVersion"].value("gitVersion", "unknown") << '\n';
    }
  }
  if (!note.empty()) ctx.err << "note: server version unavailable: " << note << '\n';
  return kExitOk;
}

}  // namespace

Command NewVersionCommand() {
  auto o = std::make_shared<VersionOptions>();
  Command c;
  c.path = "version";
  c.short_help = "Print the client and server version information";
  c.long_help =
      "Print the plugin's version and git commit, and the server's version when a cluster is reachable.\n";
  c.examples = "  # Print the client and server versions for the current context\n  kubectl tazuna version\n\n"
               "  # As JSON\n  kubectl tazuna version -o json\n";
  c.add_flags = [o](FlagSet& f) {
    AddConnectionFlags(f, o->connection);
    AddOutputFlag(f, o->output, "json, yaml");
    f.Bool(&o->client_only, "client", 0, "If true, shows client version only (no server required).");
  };
  c.run = [o](Context& ctx, const FlagSet&, const std::vector<std::string>&) { return RunVersion(ctx, *o); };
  return c;
}

}  // namespace tazuna::cli
