// The viewer's own errors. What the broker or its watch refuses arrives as the client's errors, recognised by code.
import { brandErrorClass } from "@orphus/internal";

/** Base of the viewer's errors. */
export abstract class ViewerError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
}

/** Thrown by startViewer when an option is out of its range or of the wrong form; says which and what arrived. */
export class ViewerOptionsError extends ViewerError {
  override readonly name = "ViewerOptionsError";
  readonly code = "ERR_VIEWER_OPTIONS";
}
