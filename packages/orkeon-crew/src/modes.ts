import { sameIgnoringAsciiCase } from "./text.js";

/**
 * The session's permission modes, set with /mode. The ADR names `plan` and `dontAsk` (the read-only modes: they
 * promise nothing changes) and `default` (a writing mode). `acceptEdits` and `confirmWaves` are this package's names:
 * a writing mode that runs the edits without a question, and the mode that asks before each parallel wave, which the
 * ADR describes without naming.
 */
export type OrkeonMode = "plan" | "dontAsk" | "default" | "acceptEdits" | "confirmWaves";

/** What a mode promises. */
export interface ModeTraits {
  /** Nothing changes: no edit, no write through a tool, no outbound request. */
  readonly readOnly: boolean;
  /** The operator is asked before each parallel wave of workers. */
  readonly asksBeforeWave: boolean;
}

/** Modes by name, with what each promises; a name not in the table promises nothing a hop must respect. */
export type ModeTable = Readonly<Record<string, ModeTraits>>;

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

/**
 * The entry of `table` a mode name spells, compared without regard to ASCII letter case (a .NET runtime may print
 * `Plan` for `plan`), or undefined for a name the table does not hold.
 */
export function modeEntryOf<M extends string>(name: string, table: Readonly<Record<M, ModeTraits>>): M | undefined {
  return (Object.keys(table) as M[]).find((mode) => sameIgnoringAsciiCase(mode, name));
}

/** The mode a name spells (ASCII letter case aside), or undefined for a name this package does not know. */
export function parseMode(name: string): OrkeonMode | undefined {
  return modeEntryOf(name, ORKEON_MODES);
}

/** True for the read-only modes, plan and dontAsk. */
export function isReadOnlyMode(mode: OrkeonMode): boolean {
  return ORKEON_MODES[mode].readOnly;
}
