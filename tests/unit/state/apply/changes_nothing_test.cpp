// ChangesNothing: when a sync may leave a state as stored (no state write, no revision record).
#include <doctest/doctest.h>

#include "state/apply/sync_engine.hpp"

namespace tazuna::state {
namespace {

// A manifest synced before: one ConfigMap, its state the exact record of render "d1".
SyncInput Recorded() {
  SyncInput in;
  in.desired.name = "m";
  in.desired.input_digest = "d1";
  DesiredObject d;
  d.key = {"m", "", "v1", "ConfigMap", "ns", "a"};
  d.key_string = "m____v1__ConfigMap__ns__a";
  d.hash = "h";
  in.desired.objects.push_back(d);
  in.stored.manifest = "m";
  in.stored.entries = {{d.key_string, "h"}};
  in.stored.objects = {{"tazuna-state-m", "42"}};
  in.stored.metadata.origin = {"github.com/x/y", "tazuna.yaml"};
  in.stored.metadata.context_namespace = "default";
  in.stored.metadata.render_digest = "d1";
  in.stored.metadata.entries_digest = EntriesDigest(in.stored.entries, in.stored.metadata);
  in.context_namespace = "default";
  return in;
}

SyncOptions Options() {
  SyncOptions o;
  o.origin = {"github.com/x/y", "tazuna.yaml"};
  return o;
}

TEST_CASE("changes nothing: a state that is the record of this very render, nothing to apply") {
  CHECK(ChangesNothing(Recorded(), Options()));
  SyncInput from_state = Recorded();
  from_state.desired.from_state = true;  // not rendered: its state is the record of the render
  CHECK(ChangesNothing(from_state, Options()));
}

TEST_CASE("changes nothing: anything the sync would write or record makes it write") {
  SyncInput in = Recorded();
  in.diff.push_back({});  // a row to do: the state stops recording the render (its entries are the checkpointer's)
  CHECK_FALSE(ChangesNothing(in, Options()));

  in = Recorded();
  in.stored.objects.clear();  // no state yet: the first sync writes one even for an empty render
  CHECK_FALSE(ChangesNothing(in, Options()));

  in = Recorded();
  in.relocations.push_back({});  // entries moved to the context namespace
  CHECK_FALSE(ChangesNothing(in, Options()));

  in = Recorded();
  in.stored.metadata.origin = {};  // the Go tool's state: this sync claims it
  CHECK_FALSE(ChangesNothing(in, Options()));

  in = Recorded();
  in.context_namespace = "other";  // synced with another -n
  CHECK_FALSE(ChangesNothing(in, Options()));

  in = Recorded();
  in.desired.input_digest = "d2";  // rendered from other inputs to the same objects: the record moves
  CHECK_FALSE(ChangesNothing(in, Options()));

  in = Recorded();
  in.stored.metadata.render_digest.clear();  // a state that records no render (an older version's) gains it
  CHECK_FALSE(ChangesNothing(in, Options()));

  in = Recorded();
  in.stored.metadata.entries_digest = "stale";  // edited since it was written (state forget, the Go tool)
  CHECK_FALSE(ChangesNothing(in, Options()));

  in = Recorded();
  in.desired.crd_scopes = {{"example.com/Thing", true}};  // the scopes the record keeps changed
  CHECK_FALSE(ChangesNothing(in, Options()));

  in = Recorded();
  in.desired.always_sync = true;  // genesissecret: no render digest is kept, the stored one is dropped
  CHECK_FALSE(ChangesNothing(in, Options()));
}

TEST_CASE("changes nothing: rows kept with their entries (the checkpointer saw no change) leave the state") {
  SyncInput in = Recorded();
  DiffEntry removed;
  removed.type = ChangeType::kRemoved;
  in.diff.push_back(removed);
  in.stored.metadata.render_digest.clear();  // a state left with kept entries records no render
  in.stored.metadata.entries_digest.clear();
  CHECK(ChangesNothing(in, Options()));
  SyncOptions prune = Options();
  prune.prune = true;  // kept for good under --prune too (a reserved Namespace, not managed by tazuna)
  CHECK(ChangesNothing(in, prune));
  in.stored.metadata.render_digest = "d1";  // the sync that first keeps them drops the render record
  CHECK_FALSE(ChangesNothing(in, Options()));
}

TEST_CASE("changes nothing: what is not the record stays unrecorded") {
  SyncInput in = Recorded();
  in.desired.always_sync = true;
  in.stored.metadata.render_digest.clear();
  in.stored.metadata.entries_digest.clear();
  CHECK(ChangesNothing(in, Options()));  // nothing would be recorded either way
}

}  // namespace
}  // namespace tazuna::state
