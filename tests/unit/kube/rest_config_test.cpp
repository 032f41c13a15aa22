#include "kube/rest_config.hpp"

#include <doctest/doctest.h>

#include "util/base64.hpp"
#include "fakes.hpp"

namespace tazuna::kube {
namespace {

using testing::FakeFiles;

const char kA[] = R"(apiVersion: v1
kind: Config
clusters:
- name: c1
  cluster: {server: "https://one.example:6443/prefix", certificate-authority: ca.crt}
- name: nosrv
  cluster: {certificate-authority: ca.crt}
contexts:
- name: ctx-a
  context: {cluster: c1, user: red-user, namespace: team-a}
- name: ctx-nons
  context: {cluster: c1, user: red-user}
- name: ctx-two
  context: {cluster: c2, user: two}
- name: ctx-lost
  context: {cluster: lost, user: red-user}
users:
- name: red-user
  user: {token: from-a}
- name: two
  user: {token: t, username: bob, password: p, client-certificate: nofile.crt, as-groups: [g]}
)";

// b.yaml lives in a subdirectory: its relative paths resolve there.
const char kB[] = R"(current-context: ctx-b
clusters:
- name: c1
  cluster: {server: "https://two.example"}
- name: c2
  cluster: {server: "https://c2.example:443", certificate-authority-data: Q0Ey, tls-server-name: c2.internal}
- name: both
  cluster: {server: "https://both", certificate-authority: /k/none.crt, certificate-authority-data: Q0Ey}
users:
- name: red-user
  user: {token: from-b, username: bob}
- name: blue
  user: {client-certificate: certs/blue.crt, client-key: certs/blue.key}
- name: datauser
  user: {client-certificate-data: REFUQUNFUlQ=, client-key-data: REFUQUtFWQ==}
- name: gcp
  user: {auth-provider: {name: gcp}}
- name: azure
  user: {auth-provider: {name: azure}}
- name: v1exec
  user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: foo}}
- name: filetok
  user: {tokenFile: tok.txt}
- name: execuser
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: ../bin/plug
      args: [get-token, --x]
      env: [{name: A, value: b}]
      installHint: apt install plug
      provideClusterInfo: true
contexts:
- name: ctx-b
  context: {cluster: c2, user: blue, namespace: team-b}
- name: ctx-both
  context: {cluster: both, user: red-user}
- name: ctx-exec
  context: {cluster: c3, user: execuser}
)";

const char kC[] = R"(clusters:
- name: c3
  cluster:
    server: "http://c3.example"
    insecure-skip-tls-verify: true
    extensions:
    - name: client.authentication.k8s.io/exec
      extension: {audience: my-aud}
- name: badtls
  cluster: {server: "https://x", insecure-skip-tls-verify: true, certificate-authority: /k/ca.crt}
contexts:
- name: ctx-c
  context: {cluster: c3, user: filetok}
- name: ctx-badtls
  context: {cluster: badtls, user: red-user}
)";

FakeFiles Files() {
  FakeFiles f;
  f.files = {{"/k/a.yaml", kA},
             {"/k/sub/b.yaml", kB},
             {"/k/c.yaml", kC},
             {"/k/ca.crt", "CA1"},
             {"/k/flag.crt", "FLAGCERT"},
             {"/k/sub/certs/blue.crt", "BLUECERT"},
             {"/k/sub/certs/blue.key", "BLUEKEY"},
             {"/k/sub/tok.txt", "  filetok\n"},
             {"/home/u/.kube/config", "current-context: h\ncontexts:\n- name: h\n  context: {cluster: hc}\n"
                                      "clusters:\n- name: hc\n  cluster: {server: 'https://home'}\n"},
             {"/k/dup.yaml", "clusters:\n- name: x\n  cluster: {server: a}\n- name: x\n  cluster: {server: b}\n"},
             {"/k/b64.yaml", "users:\n- name: x\n  user: {client-certificate-data: '!!notb64'}\n"},
             {"/k/bad.yaml", "clusters: [\n"},
             {"/k/empty.yaml", ""}};
  return f;
}

std::string Describe(const util::Result<RestConfig>& r) {
  if (!r) {
    std::string out = util::StrCat("ERR ", static_cast<int>(r.error().kind), " ", r.error().message);
    for (const auto& line : r.error().detail_lines) out += "|" + line;
    return out;
  }
  return util::StrCat("server=", r->server, " ns=", r->namespace_name, " ctx=", r->context_name,
                      " cluster=", r->cluster_name, " user=", r->user_name, " token=", r->token,
                      " basic=", r->username, " ca=", r->ca_pem, " cafile=", r->ca_file, " insecure=", r->insecure,
                      " sni=", r->tls_server_name, " cert=", r->client_cert_pem, " key=", r->client_key_pem,
                      " exec=", r->exec ? r->exec->command : "-");
}

struct Case {
  const char* name;
  const char* kubeconfig_env;  // nullptr = unset
  ConfigFlags flags;
  const char* want;
};

ConfigFlags Ctx(const char* context) {
  ConfigFlags f;
  f.context = context;
  return f;
}

template <class Fn>
ConfigFlags With(ConfigFlags f, Fn fn) {
  fn(f);
  return f;
}

}  // namespace
}  // namespace tazuna::kube

namespace tazuna::kube {
namespace {

const char kAB[] = "/k/a.yaml:/k/sub/b.yaml";
const char kCtxB[] =
    "server=https://c2.example:443 ns=team-b ctx=ctx-b cluster=c2 user=blue token= basic= ca=CA2 cafile= "
    "insecure=0 sni=c2.internal cert=BLUECERT key=BLUEKEY exec=-";
const char kCtxA[] =
    "server=https://one.example:6443/prefix ns=team-a ctx=ctx-a cluster=c1 user=red-user token=from-a basic= "
    "ca=CA1 cafile=/k/ca.crt insecure=0 sni= cert= key= exec=-";
const char kGcp[] =
    "ERR 1 The gcp auth plugin has been removed.|Please use the \"gke-gcloud-auth-plugin\" kubectl/client-go credential "
    "plugin instead.|See https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke "
    "for further details";

const Case kCases[] = {
    {"current-context from the second file, its cluster and user", kAB, {}, kCtxB},
    {"first file wins a whole cluster and user stanza", kAB, Ctx("ctx-a"), kCtxA},
    {"reversed order takes the other stanzas whole", "/k/sub/b.yaml:/k/a.yaml", Ctx("ctx-a"),
     "ERR 1 more than one authentication method found for red-user; found [token basicAuth], only one is allowed"},
    {"missing files are skipped", "/k/missing.yaml:/k/a.yaml", Ctx("ctx-a"), kCtxA},
    {"duplicate and empty entries are dropped", "/k/a.yaml::/k/a.yaml:/k/sub/b.yaml", {}, kCtxB},
    {"relative KUBECONFIG entries resolve against the working directory", "a.yaml", Ctx("ctx-a"), kCtxA},
    {"--kubeconfig is used alone", kAB, With(Ctx("ctx-b"), [](auto& f) { f.kubeconfig = "/k/a.yaml"; }),
     "ERR 2 Error in configuration: context was not found for specified context: ctx-b"},
    {"--kubeconfig missing file", kAB, With(ConfigFlags{}, [](auto& f) { f.kubeconfig = "/k/nope.yaml"; }),
     "ERR 1 stat /k/nope.yaml: no such file or directory"},
    {"--kubeconfig empty file means no configuration", nullptr,
     With(ConfigFlags{}, [](auto& f) { f.kubeconfig = "/k/empty.yaml"; }),
     "ERR 2 Error in configuration: no configuration has been provided"},
    {"~/.kube/config when KUBECONFIG is unset", nullptr, {},
     "server=https://home ns=default ctx=h cluster=hc user= token= basic= ca= cafile= insecure=0 sni= cert= key= "
     "exec=-"},
    {"no file at all", "/k/missing.yaml", {}, "ERR 2 Error in configuration: no configuration has been provided"},
    {"--server alone works without a file", "/k/missing.yaml",
     With(ConfigFlags{}, [](auto& f) { f.server = "https://s:6443"; }),
     "server=https://s:6443 ns=default ctx= cluster= user= token= basic= ca= cafile= insecure=0 sni= cert= key= "
     "exec=-"},
    {"-n wins over the context namespace", kAB, With(Ctx("ctx-a"), [](auto& f) { f.namespace_name = "other"; }),
     "server=https://one.example:6443/prefix ns=other ctx=ctx-a cluster=c1 user=red-user token=from-a basic= "
     "ca=CA1 cafile=/k/ca.crt insecure=0 sni= cert= key= exec=-"},
    {"context without namespace defaults to default", kAB, Ctx("ctx-nons"),
     "server=https://one.example:6443/prefix ns=default ctx=ctx-nons cluster=c1 user=red-user token=from-a "
     "basic= ca=CA1 cafile=/k/ca.crt insecure=0 sni= cert= key= exec=-"},
    {"tokenFile is relative to its file and trimmed", "/k/c.yaml:/k/sub/b.yaml", Ctx("ctx-c"),
     "server=http://c3.example ns=default ctx=ctx-c cluster=c3 user=filetok token=filetok basic= ca= cafile= "
     "insecure=1 sni= cert= key= exec=-"},
    {"--token clears tokenFile", "/k/c.yaml:/k/sub/b.yaml", With(Ctx("ctx-c"), [](auto& f) { f.token = "flagtok"; }),
     "server=http://c3.example ns=default ctx=ctx-c cluster=c3 user=filetok token=flagtok basic= ca= cafile= "
     "insecure=1 sni= cert= key= exec=-"},
    {"--server clears tls-server-name", kAB, With(ConfigFlags{}, [](auto& f) { f.server = "https://other:6443"; }),
     "server=https://other:6443 ns=team-b ctx=ctx-b cluster=c2 user=blue token= basic= ca=CA2 cafile= "
     "insecure=0 sni= cert=BLUECERT key=BLUEKEY exec=-"},
    {"--server with --tls-server-name keeps the flag", kAB, With(ConfigFlags{}, [](auto& f) {
       f.server = "https://other:6443";
       f.tls_server_name = "n";
     }),
     "server=https://other:6443 ns=team-b ctx=ctx-b cluster=c2 user=blue token= basic= ca=CA2 cafile= "
     "insecure=0 sni=n cert=BLUECERT key=BLUEKEY exec=-"},
    {"--certificate-authority replaces CA data", kAB,
     With(ConfigFlags{}, [](auto& f) { f.certificate_authority = "/k/ca.crt"; }),
     "server=https://c2.example:443 ns=team-b ctx=ctx-b cluster=c2 user=blue token= basic= ca=CA1 "
     "cafile=/k/ca.crt insecure=0 sni=c2.internal cert=BLUECERT key=BLUEKEY exec=-"},
    {"--insecure-skip-tls-verify clears the CA", kAB,
     With(ConfigFlags{}, [](auto& f) { f.insecure_skip_tls_verify = true; }),
     "server=https://c2.example:443 ns=team-b ctx=ctx-b cluster=c2 user=blue token= basic= ca= cafile= "
     "insecure=1 sni=c2.internal cert=BLUECERT key=BLUEKEY exec=-"},
    {"--insecure-skip-tls-verify=false does not override true", "/k/c.yaml:/k/sub/b.yaml",
     With(Ctx("ctx-c"), [](auto& f) { f.insecure_skip_tls_verify = false; }),
     "server=http://c3.example ns=default ctx=ctx-c cluster=c3 user=filetok token=filetok basic= ca= cafile= "
     "insecure=1 sni= cert= key= exec=-"},
    {"insecure together with a CA", "/k/c.yaml:/k/a.yaml", Ctx("ctx-badtls"),
     "ERR 1 specifying a root certificates file with the insecure flag is not allowed"},
    {"--certificate-authority replaces kubeconfig insecure", "/k/c.yaml:/k/a.yaml",
     With(Ctx("ctx-badtls"), [](auto& f) { f.certificate_authority = "/k/ca.crt"; }),
     "server=https://x ns=default ctx=ctx-badtls cluster=badtls user=red-user token=from-a basic= ca=CA1 "
     "cafile=/k/ca.crt insecure=0 sni= cert= key= exec=-"},
    {"client cert and key data", kAB, With(ConfigFlags{}, [](auto& f) { f.user = "datauser"; }),
     "server=https://c2.example:443 ns=team-b ctx=ctx-b cluster=c2 user=datauser token= basic= ca=CA2 cafile= "
     "insecure=0 sni=c2.internal cert=DATACERT key=DATAKEY exec=-"},
    {"--client-certificate clears certificate data only", kAB, With(ConfigFlags{}, [](auto& f) {
       f.user = "datauser";
       f.client_certificate = "/k/flag.crt";
     }),
     "server=https://c2.example:443 ns=team-b ctx=ctx-b cluster=c2 user=datauser token= basic= ca=CA2 cafile= "
     "insecure=0 sni=c2.internal cert=FLAGCERT key=DATAKEY exec=-"},
    {"--context not found", kAB, Ctx("nosuch"),
     "ERR 2 Error in configuration: context was not found for specified context: nosuch"},
    {"--cluster not found", kAB, With(ConfigFlags{}, [](auto& f) { f.cluster = "nosuch"; }),
     "ERR 1 no server found for cluster \"nosuch\""},
    {"--user not found", kAB, With(ConfigFlags{}, [](auto& f) { f.user = "nosuch"; }),
     "ERR 1 auth info \"nosuch\" does not exist"},
    {"context's cluster missing", kAB, Ctx("ctx-lost"), "ERR 1 no server found for cluster \"lost\""},
    {"cluster without server", kAB, With(Ctx("ctx-a"), [](auto& f) { f.cluster = "nosrv"; }),
     "ERR 1 no server found for cluster \"nosrv\""},
    {"several problems become bullets", kAB, Ctx("ctx-two"),
     "ERR 2 Error in configuration: |* client-key-data or client-key must be specified for two to use the "
     "clientCert authentication method.|* unable to read client-cert /k/nofile.crt for two due to open "
     "/k/nofile.crt: no such file or directory|* more than one authentication method found for two; found [token "
     "basicAuth], only one is allowed|* requesting uid, groups or user-extra for two without impersonating a user"},
    {"CA given twice and unreadable", kAB, Ctx("ctx-both"),
     "ERR 2 Error in configuration: |* certificate-authority-data and certificate-authority are both specified "
     "for both. certificate-authority-data will override.|* unable to read certificate-authority /k/none.crt for "
     "both due to open /k/none.crt: no such file or directory"},
    {"exec v1 needs interactiveMode", kAB, With(ConfigFlags{}, [](auto& f) { f.user = "v1exec"; }),
     "ERR 1 interactiveMode must be specified for v1exec to use exec authentication plugin"},
    {"--as-group without --as", kAB, With(Ctx("ctx-a"), [](auto& f) { f.as_groups = {"g1"}; }),
     "ERR 1 requesting uid, groups or user-extra for red-user without impersonating a user"},
    {"gcp auth-provider was removed", kAB, With(ConfigFlags{}, [](auto& f) { f.user = "gcp"; }),
     kGcp},
    {"duplicate name in one file", "/k/dup.yaml", {},
     "ERR 1 error loading config file \"/k/dup.yaml\": error converting *[]NamedCluster into "
     "*map[string]*api.Cluster: duplicate name \"x\" in list"},
    {"bad base64", "/k/b64.yaml", {},
     "ERR 1 error loading config file \"/k/b64.yaml\": illegal base64 data at input byte 0"},
    {"bad --request-timeout", kAB, With(ConfigFlags{}, [](auto& f) { f.request_timeout = "abc"; }),
     "ERR 1 Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a "
     "corresponding time unit (e.g. 1s | 2m | 3h)"},
    {"exec command relative to its file", "/k/sub/b.yaml:/k/c.yaml", Ctx("ctx-exec"),
     "server=http://c3.example ns=default ctx=ctx-exec cluster=c3 user=execuser token= basic= ca= cafile= "
     "insecure=1 sni= cert= key= exec=/k/bin/plug"},
    {"--token turns exec off", "/k/sub/b.yaml:/k/c.yaml", With(Ctx("ctx-exec"), [](auto& f) { f.token = "x"; }),
     "server=http://c3.example ns=default ctx=ctx-exec cluster=c3 user=execuser token=x basic= ca= cafile= "
     "insecure=1 sni= cert= key= exec=-"},
};

util::Environment Env(const char* kubeconfig) {
  util::Environment env;
  env.Set("HOME", "/home/u");
  env.Set("PWD", "/k");
  if (kubeconfig) env.Set("KUBECONFIG", kubeconfig);
  return env;
}

TEST_CASE("rest config: kubeconfig loading, merging, overrides and errors") {
  for (const Case& c : kCases) {
    CAPTURE(c.name);
    FakeFiles files = Files();
    CHECK(Describe(LoadRestConfig(c.flags, Env(c.kubeconfig_env), files)) == c.want);
  }
}

TEST_CASE("rest config: bad YAML names the file") {
  FakeFiles files = Files();
  auto r = LoadRestConfig({}, Env("/k/bad.yaml"), files);
  REQUIRE(!r);
  CHECK(r.error().message.rfind("error loading config file \"/k/bad.yaml\": yaml: line ", 0) == 0);
}

TEST_CASE("rest config: exec stanza details and the cluster extension") {
  FakeFiles files = Files();
  auto r = LoadRestConfig(Ctx("ctx-exec"), Env("/k/sub/b.yaml:/k/c.yaml"), files);
  REQUIRE(r);
  REQUIRE(r->exec);
  CHECK(r->exec->api_version == "client.authentication.k8s.io/v1beta1");
  CHECK(r->exec->args == std::vector<std::string>{"get-token", "--x"});
  CHECK(r->exec->env == std::vector<std::pair<std::string, std::string>>{{"A", "b"}});
  CHECK(r->exec->install_hint == "apt install plug");
  CHECK(r->exec->provide_cluster_info);
  CHECK(r->exec->interactive_mode == "IfAvailable");
  CHECK(r->exec->cluster_config.dump() == R"({"audience":"my-aud"})");
}

TEST_CASE("rest config: in-cluster when no kubeconfig exists") {
  FakeFiles files;
  files.files = {{"/var/run/secrets/kubernetes.io/serviceaccount/token", "sa-token\n"},
                 {"/var/run/secrets/kubernetes.io/serviceaccount/ca.crt", "SACA"},
                 {"/var/run/secrets/kubernetes.io/serviceaccount/namespace", "pod-ns\n"}};
  util::Environment env = Env(nullptr);
  env.Set("KUBERNETES_SERVICE_HOST", "fd00::1");
  env.Set("KUBERNETES_SERVICE_PORT", "443");
  CHECK(Describe(LoadRestConfig({}, env, files)) ==
        "server=https://[fd00::1]:443 ns=pod-ns ctx= cluster= user= token=sa-token basic= ca=SACA "
        "cafile=/var/run/secrets/kubernetes.io/serviceaccount/ca.crt insecure=0 sni= cert= key= exec=-");
  env.Set("POD_NAMESPACE", "from-env");
  CHECK(LoadRestConfig({}, env, files)->namespace_name == "from-env");
  CHECK(LoadRestConfig(With(ConfigFlags{}, [](auto& f) { f.namespace_name = "flag"; }), env, files)
            ->namespace_name == "flag");
}

TEST_CASE("rest config: azure auth-provider message, timeout and cache dir") {
  FakeFiles files = Files();
  auto r = LoadRestConfig(With(ConfigFlags{}, [](auto& f) {
                            f.user = "azure";
                          }),
                          Env(kAB), files);
  REQUIRE(!r);
  CHECK(r.error().message == "The azure auth plugin has been removed.");
  auto ok = LoadRestConfig(With(ConfigFlags{}, [](auto& f) { f.request_timeout = "7s"; }), Env(kAB), files);
  REQUIRE(ok);
  CHECK(ok->timeout == std::chrono::seconds(7));
  CHECK(ok->cache_dir == "/home/u/.kube/cache");
}

TEST_CASE("rest config: ListContextNames") {
  FakeFiles files = Files();
  CHECK(ListContextNames({}, Env(kAB), files) ==
        std::vector<std::string>{"ctx-a", "ctx-b", "ctx-both", "ctx-exec", "ctx-lost", "ctx-nons", "ctx-two"});
  CHECK(ListContextNames({}, Env("/k/bad.yaml"), files).empty());
}

TEST_CASE("rest config: ParseTimeout") {
  struct {
    const char* in;
    long long ms;
  } const cases[] = {{"", 0}, {"0", 0}, {"7", 7000}, {"7s", 7000}, {"2m", 120000}, {"1h30m", 5400000},
                     {"500ms", 500}, {"1.5s", 1500}, {"-1", -1}, {"1x", -1}, {"s", -1},
                     // Go's Duration is int64 nanoseconds: beyond it is invalid, never an overflow.
                     {"9223372036", 9223372036000}, {"9223372037", -1}, {"99999999999999999999", -1},
                     {"99999999999999999999h", -1}, {"1.5.5s", -1}, {".5s", 500}};
  for (const auto& c : cases) {
    CAPTURE(c.in);
    auto r = ParseTimeout(c.in);
    if (c.ms < 0) {
      CHECK(!r);
    } else {
      REQUIRE(r);
      CHECK(r->count() == c.ms);
    }
  }
}

}  // namespace
}  // namespace tazuna::kube
