import type { Trial } from "@forge/kernel";
import type { Episode } from "./bundle.js";

/**
 * The episode a trial projects to (`trial:<trial_id>`). The import log does
 * not store these when they can be derived exactly from the stored trials.
 * @example trialEpisode(trial).episode_id // "trial:<trial_id>"
 */
export function trialEpisode(t: Trial): Episode {
  return {
    episode_id: `trial:${t.trial_id}`,
    kind: "trial",
    claim_id: t.claim_id,
    outcome: t.outcome,
    recorded_at: t.recorded_at,
    detail: {
      duration_ms: t.duration_ms,
      signature: t.signature,
      env_fingerprint: t.env_fingerprint,
      receipt_ref: t.receipt_ref,
    },
  };
}
