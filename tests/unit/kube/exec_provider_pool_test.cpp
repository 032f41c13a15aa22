#include "kube/exec_provider_pool.hpp"

#include <doctest/doctest.h>

#include "fakes.hpp"

namespace tazuna::kube {
namespace {

util::ProcessResult Token(const std::string& token) {
  util::ProcessResult r;
  r.out = R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":")" + token +
          "\"}}";
  return r;
}

RestConfig UserOn(const std::string& user, const std::string& server, bool provide_cluster_info) {
  RestConfig c;
  c.user_name = user;
  c.server = server;
  c.exec = ExecConfig{};
  c.exec->api_version = "client.authentication.k8s.io/v1";
  c.exec->command = "/bin/plug";
  c.exec->interactive_mode = "Never";
  c.exec->provide_cluster_info = provide_cluster_info;
  return c;
}

TEST_CASE("exec provider pool: one plugin run per user across contexts") {
  testing::FakeProcesses procs;
  testing::FakeClock clock;
  util::Environment env;
  procs.results = {Token("t1"), Token("t2"), Token("t3")};
  ExecProviderPool pool(procs, clock, env);
  std::shared_ptr<ExecProvider> a;
  {
    const RestConfig prod_a = UserOn("sso", "https://a:6443", false);
    a = pool.For(prod_a);
  }  // the provider keeps its own copy of the cluster it was made for
  const auto b = pool.For(UserOn("sso", "https://b:6443", false));
  CHECK(a == b);
  CHECK(a->Get()->token == "t1");
  CHECK(b->Get()->token == "t1");
  CHECK(procs.requests.size() == 1);

  // Another user, or a plugin told which cluster it serves, runs on its own.
  const auto other = pool.For(UserOn("robot", "https://a:6443", false));
  const auto told_a = pool.For(UserOn("sso", "https://a:6443", true));
  const auto told_b = pool.For(UserOn("sso", "https://b:6443", true));
  CHECK(other != a);
  CHECK(told_a != told_b);
  CHECK(told_a == pool.For(UserOn("sso", "https://a:6443", true)));
  CHECK(other->Get()->token == "t2");
  CHECK(told_a->Get()->token == "t3");
}

}  // namespace
}  // namespace tazuna::kube
