import { previewValue } from "@orphus/internal";
import { RoomsError } from "@orphus/rooms";

/** A store URL is not a `redis://` or `rediss://` URL; the message quotes it masked. */
export class StoreUrlInvalidError extends RoomsError {
  override readonly name = "StoreUrlInvalidError";
  readonly code = "ERR_STORE_URL_INVALID";
  constructor(
    readonly maskedUrl: string,
    problem: string,
  ) {
    super(
      `Invalid room store URL ${previewValue(maskedUrl)}: ${problem}; expected redis://[user:password@]host[:port][/db] or rediss://…`,
    );
  }
}

/** A broker opened a store whose backend was set up with other limits (capacity, members, …) by another broker. */
export class StoreLimitsMismatchError extends RoomsError {
  override readonly name = "StoreLimitsMismatchError";
  readonly code = "ERR_STORE_LIMITS_MISMATCH";
  constructor(
    readonly store: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(
      `Room store ${store} holds rooms with other limits than this broker's: it has ${previewValue(found)}, ` +
        `this broker asks ${previewValue(expected)}; start every broker of one store with the same limits`,
    );
  }
}
