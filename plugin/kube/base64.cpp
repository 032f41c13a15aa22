#include "kube/base64.hpp"

#include <sodium.h>

#include "util/strings.hpp"

namespace tazuna::kube {

std::string Base64Encode(std::string_view data) {
  constexpr int kVariant = sodium_base64_VARIANT_ORIGINAL;
  std::string out(sodium_base64_ENCODED_LEN(data.size(), kVariant), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(data.data()), data.size(),
                    kVariant);
  out.resize(out.size() - 1);  // drop the NUL terminator libsodium counts in
  return out;
}

util::Result<std::string> Base64Decode(std::string_view text) {
  std::string out(text.size() / 4 * 3 + 3, '\0');
  size_t len = 0;
  const char* end = nullptr;
  const int rc = sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(),
                                   text.size(), nullptr, &len, &end, sodium_base64_VARIANT_ORIGINAL);
  if (rc != 0 || end != text.data() + text.size()) {
    const size_t at = end ? static_cast<size_t>(end - text.data()) : 0;
    return util::MakeError(util::ErrorKind::kInput, util::StrCat("illegal base64 data at input byte ", at));
  }
  out.resize(len);
  return out;
}

}  // namespace tazuna::kube
