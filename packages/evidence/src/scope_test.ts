import test from "ava";
import { exportBundle } from "./envelope.js";
import { importProjectionBatch } from "./import_batch.js";
import { readScope } from "./scope.js";
import { transformEnvelopeV3 } from "./transform_v3.js";
import { NOW, PRODUCER, sampleBundle, tempStore, trialOf } from "./_fixture.js";

const lane = (bundle: unknown) => transformEnvelopeV3(exportBundle(bundle, PRODUCER));

test(
  "readScope with episodeIds: exactly the full list's members with those ids, trial episodes (derived) and stored " +
    "ones alike",
  (t) => {
    const store = tempStore();
    importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
    importProjectionBatch(
      store,
      lane(
        sampleBundle({
          bundle_id: "ci:run2",
          verification: {
            trials: [trialOf("run2:test", "c-test", "pass", "run2"), trialOf("run2:lint", "c-lint", "pass", "run2")],
            typed_diff: [],
          },
          episodes: [
            {
              episode_id: "oracle:o1",
              kind: "oracle",
              claim_id: null,
              outcome: "bound_not_reached",
              recorded_at: "2026-11-30T02:30:00Z",
              detail: {},
            },
          ],
        })
      ),
      { now: () => new Date("2026-11-30T04:00:00Z") }
    );
    const all = readScope(store, "default").episodes;
    t.true(all.length >= 5);
    for (const ids of [
      ["trial:run2:lint"],
      ["oracle:o1"],
      ["trial:run1:test", "oracle:o1", "trial:run2:test"],
      ["trial:none", "nothing"],
      [],
    ]) {
      const wanted = new Set(ids);
      t.deepEqual(
        readScope(store, "default", { episodeIds: wanted }).episodes,
        all.filter((e) => wanted.has(e.episode_id)),
        ids.join(" ")
      );
    }
  }
);

test("readScope with entries: false is the same fold with no import-log entries, and the same episode count", (t) => {
  const store = tempStore();
  importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
  importProjectionBatch(
    store,
    lane(
      sampleBundle({
        bundle_id: "ci:run2",
        verification: { trials: [trialOf("run2:test", "c-test", "pass", "run2")], typed_diff: [] },
        episodes: [
          {
            episode_id: "oracle:o2",
            kind: "oracle",
            claim_id: null,
            outcome: "bound_not_reached",
            recorded_at: "2026-11-30T02:30:00Z",
            detail: {},
          },
        ],
      })
    ),
    { now: () => new Date("2026-11-30T04:00:00Z") }
  );
  const full = readScope(store, "default");
  t.is(full.imports.length, 2);
  t.true(full.episode_count >= 3);
  t.deepEqual(readScope(store, "default", { entries: false }), { ...full, imports: [] });
});
