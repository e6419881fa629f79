import { MAX_POSTS_PER_EVENT } from "./constants.js";
import type { ListedPost, RoundtableEvent } from "./types.js";

/** One post an event announces: its seq and author (a listed entry's `count` read out as single posts). */
export type AnnouncedPost = Pick<ListedPost, "seq" | "author">;

/** The oldest client version that reads a posts event; an older one gets one post event per post. */
export const POSTS_EVENT_SINCE_VERSION = 2;

/** True when a peer that said hello with `version` reads posts events (merged post events). */
export function readsPostsEvents(version: number): boolean {
  return version >= POSTS_EVENT_SINCE_VERSION;
}

/**
 * The posts an event announces, in seq order, one entry each: one for a post event, every post a posts event lists
 * (an entry with a count read out as that many), none for membership churn. The one way to read activity, so a
 * reader of post events cannot overlook the merged form. Reads at most MAX_POSTS_PER_EVENT posts, all a valid
 * posts event holds, whatever an unchecked one claims.
 */
export function announcedPosts(event: RoundtableEvent): readonly AnnouncedPost[] {
  switch (event.event) {
    case "post":
      return [{ seq: event.seq, author: event.author }];
    case "posts": {
      const posts: AnnouncedPost[] = [];
      for (const { seq, author, count = 1 } of event.posts) {
        for (let i = 0; i < count && posts.length < MAX_POSTS_PER_EVENT; i++) posts.push({ seq: seq + i, author });
        if (posts.length === MAX_POSTS_PER_EVENT) break;
      }
      return posts;
    }
    default:
      return [];
  }
}
