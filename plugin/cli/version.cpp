// kubectl tazuna version [-o json]
#include "cli/version.hpp"

#include "cli/build_info.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

nlohmann::json ClientVersion() {
  return {{"gitVersion", util::StrCat("v", BuildVersion())},
          {"gitCommit", std::string(BuildCommit())},
          {"platform", std::string(BuildPlatform())}};
}

void PrintVersionText(const nlohmann::json& doc, std::ostream& out) {
  out << "Client Version: v" << BuildVersion() << " (commit " << BuildCommit() << ")\n";
  if (doc.contains("serverVersion")) {
    out << "Server Version: " << util::JsonString(doc["serverVersion"], "gitVersion", "unknown") << '\n';
  }
}

}  // namespace

util::Status VersionOptions::Complete(Context&, const FlagSet&) {
  auto format = print::ParseFormat(output, {"", "json", "yaml"});
  if (!format) return format.error();
  print::Renderers<nlohmann::json> renderers;
  renderers.machine = [](const nlohmann::json& doc) { return doc; };
  renderers.human = [](const nlohmann::json& doc, print::Format, std::ostream& out) { PrintVersionText(doc, out); };
  printer = print::NewPrinter(*format, std::move(renderers));
  return util::Ok();
}

util::Status VersionOptions::Validate() const { return util::Ok(); }

util::Result<int> VersionOptions::Run(Context& ctx) {
  nlohmann::json doc = {{"clientVersion", ClientVersion()}};
  std::string note;
  if (!client_only) {
    auto session = OpenSession(ctx, connection);
    auto server = session ? (*session)->client->GetPath("/version") : util::Result<nlohmann::json>(session.error());
    if (server) {
      doc["serverVersion"] = *server;
    } else {
      note = server.error().message;
    }
  }
  printer->Print(doc, ctx.out);
  if (!note.empty()) ctx.err << "note: server version unavailable: " << note << '\n';
  return kExitOk;
}

Command NewVersionCommand() {
  auto o = std::make_shared<VersionOptions>();
  Command c = Describe("version", "Print the client and server version information", LongDesc(R"(
      Print the plugin's version and git commit, and the server's version when a cluster is reachable.
  )"));
  c.examples = Examples(R"(
      # Print the client and server versions for the current context
      kubectl tazuna version

      # As JSON
      kubectl tazuna version -o json
  )");
  c.add_flags = [o](FlagSet& f) {
    AddConnectionFlags(f, o->connection);
    AddOutputFlag(f, o->output, "json, yaml");
    f.Bool(&o->client_only, "client", 0, "If true, shows client version only (no server required).");
  };
  c.run = RunOptions(o);
  return c;
}

}  // namespace tazuna::cli
