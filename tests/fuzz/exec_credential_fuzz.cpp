// kube::ParseExecCredential on a credential plugin's stdout: an error (one line) or a usable credential.
#include "fuzz_check.hpp"
#include "kube/exec_credential.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size) {
  using namespace tazuna;
  const std::string text(fuzz::Text(data, size));
  for (const char* version : {"client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"}) {
    auto cred = kube::ParseExecCredential(text, version);
    if (!cred) {
      fuzz::CheckOneLine(cred.error());
      fuzz::Check(cred.error().kind == util::ErrorKind::kInput, "a bad credential is an input error");
      continue;
    }
    fuzz::Check(!cred->token.empty() || (!cred->client_cert_pem.empty() && !cred->client_key_pem.empty()),
                "a parsed credential has a token or a certificate and key");
  }
  return 0;
}
