#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "util/clock.hpp"

namespace tazuna::util {

/// 64 random bits per call; injected so tests can fix them.
using RandomSource = std::function<uint64_t()>;

/// A RandomSource seeded from std::random_device (not for secrets: ULIDs only need to be unlikely to collide).
RandomSource NewRandomSource();

/// Makes ULIDs (https://github.com/ulid/spec): 48 bits of Unix milliseconds, then 80 random bits, as
/// 26 characters of Crockford base32 (uppercase), so that they sort by time as strings. Monotonic
/// within one generator: an id made in the same millisecond as (or, with a clock that stepped back,
/// before) the previous one reuses its time and adds one to its random part, so ids always increase.
/// When the random part would overflow (2^80 ids in one millisecond) the time moves on by 1 ms.
class UlidGenerator {
 public:
  /// `clock` must outlive the generator.
  UlidGenerator(Clock& clock, RandomSource random) : clock_(clock), random_(std::move(random)) {}
  /// The next id, greater than every id this generator made before.
  std::string Next();

 private:
  Clock& clock_;
  RandomSource random_;
  uint64_t last_ms_ = 0;
  uint16_t last_hi_ = 0;  ///< top 16 of the 80 random bits
  uint64_t last_lo_ = 0;  ///< low 64 random bits
  bool started_ = false;
};

/// The 26-character encoding of a time in ms (48 bits used) and an 80-bit random part (hi: top 16 bits).
std::string EncodeUlid(uint64_t ms, uint16_t random_hi, uint64_t random_lo);
/// True for 26 characters of Crockford base32 (either case) whose first is 0-7 (a ULID's range).
bool IsUlid(const std::string& text);

}  // namespace tazuna::util
