/**
 * @orphus/internal — what every @orphus package shares in source: bundled into each package that uses it at build
 * time, never published, and named by no public type. The error brand and the one classifier of errors, and the one
 * preview of a value in an error message.
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
export { PREVIEW_CHARS, previewValue } from "./preview.js";
