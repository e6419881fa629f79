// What the demo's parent and its role processes agree on.

/** Idle time of the demo's broker: short, so the demo can show the broker leaving by itself (the default is 5 s). */
export const DEMO_IDLE_MS = 1500;

/** Characters each digest may spend: a small budget, as an agent that protects its context would ask for. */
export const DEMO_DIGEST_BUDGET = 800;

/** How long a role stays away before a turn marked `pauseBefore`: longer than the 1.5 s ping window. */
export const DEMO_PAUSE_MS = 1800;

/** One thing that entered a role's context, with where it came from. */
export interface ContextEntry {
  readonly kind: "ping" | "digest" | "fetch" | "memory" | "reply";
  readonly text: string;
}

/** What a role process tells the demo, one JSON object per stdout line. */
export type RoleReport =
  | { readonly type: "ready"; readonly role: string; readonly brokerPid: number; readonly spawnedBroker: boolean }
  | {
      readonly type: "posted";
      readonly role: string;
      readonly seq: number;
      readonly chars: number;
      readonly headline: string;
    }
  | { readonly type: "fetched"; readonly role: string; readonly seq: number; readonly chars: number }
  | {
      readonly type: "memory";
      readonly role: string;
      readonly action: "ingest" | "query";
      readonly input: string;
      readonly text: string;
    }
  | { readonly type: "done"; readonly role: string; readonly context: readonly ContextEntry[] };
