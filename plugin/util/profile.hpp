#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>

namespace tazuna::util {

/// What a profiled stretch of work was doing (bench/record.py reads these names from the `profile:` lines).
enum class ProfilePhase {
  kRender,      ///< rendering the manifests, content hashes included (all threads)
  kHash,        ///< content hashes of rendered objects (the threads that compute them)
  kPlan,        ///< reading the state and diffing it against the render (all threads)
  kOwners,      ///< the LISTs of who owns what exists (all threads)
  kSync,        ///< the sync engine: applies, state writes, waits (all threads)
  kBody,        ///< building request bodies of applies (the sending threads)
  kSend,        ///< one HTTP exchange, as the requesting thread waits for it (its CPU: building the request)
  kTransport,   ///< the transport's own thread moving bytes (HTTP/2, TLS, compression), polls left out
  kParse,       ///< parsing response bodies (the receiving threads)
  kStateWrite,  ///< writing state ConfigMaps, their body bytes counted (the writing thread)
  kCount,
};

/// Which CPU clock a ProfileScope reads: the calling thread's, or the whole process's (for a phase that
/// the calling thread waits on while workers do it, and that nothing else runs beside).
enum class ProfileClock { kThread, kProcess };

/// Turns profiling on for the rest of the process (TAZUNA_PROFILE=1). Off, a ProfileScope costs one load.
void EnableProfile();
/// Whether EnableProfile was called.
bool ProfileEnabled();
/// Adds `bytes` to `phase`'s byte count (when profiling).
void ProfileBytes(ProfilePhase phase, uint64_t bytes);
/// Prints one `profile: <phase> calls=N cpu_ms=X wall_ms=Y [bytes=B]` line per phase that ran, then the
/// process's own total as phase `total`; nothing when profiling is off. Thread CPU phases overlap the
/// process ones (hash is inside render; body, send, parse, transport and state-write inside sync), and sum over threads.
void PrintProfile(std::ostream& err, std::chrono::steady_clock::duration wall);

/// Adds the CPU and wall time between its construction and destruction to `phase` (when profiling).
class ProfileScope {
 public:
  explicit ProfileScope(ProfilePhase phase, ProfileClock clock = ProfileClock::kThread);
  ~ProfileScope();
  ProfileScope(const ProfileScope&) = delete;
  ProfileScope& operator=(const ProfileScope&) = delete;

 private:
  ProfilePhase phase_;
  ProfileClock clock_;
  bool on_;
  int64_t cpu0_ = 0;
  int64_t wall0_ = 0;
};

}  // namespace tazuna::util
