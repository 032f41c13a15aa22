#include "util/ulid.hpp"

#include <memory>
#include <random>

namespace tazuna::util {

namespace {

constexpr char kCrockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
constexpr uint16_t kMaxHi = 0xFFFF;
constexpr uint64_t kMaxLo = ~uint64_t{0};

}  // namespace

RandomSource NewRandomSource() {
  std::random_device device;
  auto engine = std::make_shared<std::mt19937_64>((uint64_t{device()} << 32) ^ device());
  return [engine] { return (*engine)(); };
}

std::string EncodeUlid(uint64_t ms, uint16_t random_hi, uint64_t random_lo) {
  // 128 bits: 48 of time, 16 + 64 of randomness; 26 base32 digits hold 130, the top 2 are zero.
  std::array<uint8_t, 16> bytes{};
  for (int i = 0; i < 6; ++i) bytes[i] = static_cast<uint8_t>(ms >> (8 * (5 - i)));
  bytes[6] = static_cast<uint8_t>(random_hi >> 8);
  bytes[7] = static_cast<uint8_t>(random_hi);
  for (int i = 0; i < 8; ++i) bytes[8 + i] = static_cast<uint8_t>(random_lo >> (8 * (7 - i)));
  auto bit = [&](int padded) {  // bit `padded` of the 130-bit number, from the most significant
    const int b = padded - 2;
    return b < 0 ? 0 : (bytes[b / 8] >> (7 - b % 8)) & 1;
  };
  std::string out(26, '0');
  for (int c = 0; c < 26; ++c) {
    int v = 0;
    for (int k = 0; k < 5; ++k) v = (v << 1) | bit(c * 5 + k);
    out[c] = kCrockford[v];
  }
  return out;
}

bool IsUlid(const std::string& text) {
  if (text.size() != 26 || text[0] < '0' || text[0] > '7') return false;
  for (char ch : text) {
    const char up = (ch >= 'a' && ch <= 'z') ? static_cast<char>(ch - 'a' + 'A') : ch;
    if (std::string_view(kCrockford).find(up) == std::string_view::npos) return false;
  }
  return true;
}

std::string UlidGenerator::Next() {
  const auto since_epoch = clock_.Now().time_since_epoch();
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count();
  uint64_t ms = now < 0 ? 0 : static_cast<uint64_t>(now) & ((uint64_t{1} << 48) - 1);
  if (started_ && ms <= last_ms_) {
    if (last_lo_ != kMaxLo) {
      ++last_lo_;
    } else if (last_hi_ != kMaxHi) {
      ++last_hi_;
      last_lo_ = 0;
    } else {
      ms = last_ms_ + 1;  // the random part is used up: move to the next millisecond
    }
    if (ms <= last_ms_) return EncodeUlid(last_ms_, last_hi_, last_lo_);
  }
  last_ms_ = ms;
  last_hi_ = static_cast<uint16_t>(random_());
  last_lo_ = random_();
  started_ = true;
  return EncodeUlid(last_ms_, last_hi_, last_lo_);
}

}  // namespace tazuna::util
