/**
 * The session's permission modes, set with /mode. `plan` and `dontAsk` are the read-only modes: they promise nothing
 * changes. `default`, `acceptEdits` and `confirmWaves` are the writing modes; `confirmWaves` asks the operator before
 * each parallel wave, so no unattended hop may run in it.
 */
export type OrkeonMode = "plan" | "dontAsk" | "default" | "acceptEdits" | "confirmWaves";

/** What a mode promises. */
export interface ModeTraits {
  /** Nothing changes: no edit, no write through a tool, no outbound request. */
  readonly readOnly: boolean;
  /** The operator is asked before each parallel wave of workers. */
  readonly asksBeforeWave: boolean;
}

/** Every mode and its traits. */
export const ORKEON_MODES: Readonly<Record<OrkeonMode, ModeTraits>> = Object.freeze({
  plan: Object.freeze({ readOnly: true, asksBeforeWave: false }),
  dontAsk: Object.freeze({ readOnly: true, asksBeforeWave: false }),
  default: Object.freeze({ readOnly: false, asksBeforeWave: false }),
  acceptEdits: Object.freeze({ readOnly: false, asksBeforeWave: false }),
  confirmWaves: Object.freeze({ readOnly: false, asksBeforeWave: true }),
});

/** Every mode name, read-only ones first. */
export const MODE_NAMES: readonly OrkeonMode[] = Object.freeze(Object.keys(ORKEON_MODES) as OrkeonMode[]);

/** The mode a name spells (case-sensitive, as /mode prints it), or undefined for a name this package does not know. */
export function parseMode(name: string): OrkeonMode | undefined {
  return Object.hasOwn(ORKEON_MODES, name) ? (name as OrkeonMode) : undefined;
}

/** True for the read-only modes, plan and dontAsk. */
export function isReadOnlyMode(mode: OrkeonMode): boolean {
  return ORKEON_MODES[mode].readOnly;
}
