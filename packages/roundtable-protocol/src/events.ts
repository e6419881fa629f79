import type { ListedPost, RoundtableEvent } from "./types.js";

/** The oldest client version that reads a posts event; an older one gets one post event per post. */
export const POSTS_EVENT_SINCE_VERSION = 2;

/** True when a peer that said hello with `version` reads posts events (merged post events). */
export function readsPostsEvents(version: number): boolean {
  return version >= POSTS_EVENT_SINCE_VERSION;
}

/**
 * The posts an event announces, in seq order: one for a post event, its list for a posts event, none for
 * membership churn. The one way to read activity, so a reader of post events cannot overlook the merged form.
 */
export function announcedPosts(event: RoundtableEvent): readonly ListedPost[] {
  switch (event.event) {
    case "post":
      return [{ seq: event.seq, author: event.author }];
    case "posts":
      return event.posts;
    default:
      return [];
  }
}
