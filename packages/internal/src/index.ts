/**
 * @orphus/internal — what every @orphus package shares in source: bundled into each package that uses it at build
 * time, never published. The error brand and the one classifier of errors, the one preview of a value in an error
 * message and naming of its kind, small readings of values and text several packages share (`isRecord`, `plural`,
 * the surrogate halves), and the one interface of injected timers (which a public option type may name: the build
 * inlines it into the package's .d.ts, so no published declaration imports this package).
 *
 * ```ts
 * import { brandErrorClass, hasErrorCode } from "@orphus/internal";
 * import type { NotMemberError } from "@orphus/rooms";
 *
 * export abstract class BrokerError extends Error {
 *   abstract readonly code: string;
 *   static {
 *     brandErrorClass(this);
 *   }
 * }
 *
 * // True for a NotMemberError of any copy of @orphus/rooms, where `instanceof` is true for one copy only.
 * if (hasErrorCode<NotMemberError>(error, "ERR_NOT_MEMBER")) console.log(error.roomName);
 * ```
 */
export { ERROR_BRAND, brandErrorClass, errorCode, hasErrorCode } from "./error-brand.js";
export { PREVIEW_CHARS, previewValue, typeName } from "./preview.js";
export { isHighSurrogate, isLowSurrogate, isRecord, plural } from "./values.js";
export { globalTimers } from "./timers.js";
export type { TimerHandle, Timers } from "./timers.js";
