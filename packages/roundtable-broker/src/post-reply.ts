import type { ResultFor } from "@orphus/roundtable-protocol";

/**
 * The JSON text of a post's ok reply, exactly what `JSON.stringify({ id, ok: true, op: "post", result })` gives
 * (test/post-reply.test.ts checks it against that, for any room name), written from a template: the post is the
 * request sent most, and the generic walk of this small object cost about a quarter of serving it (the broker README, "Benchmarks").
 * Its numbers are integers the protocol checked (ids, seqs, times), which print the same either way.
 */
export function postReplyJson(id: number, result: ResultFor<"post">): string {
  const { room, seq, postedAt, repeated } = result;
  const tail = repeated === true ? `,"repeated":true}}` : "}}";
  return `{"id":${id},"ok":true,"op":"post","result":{"room":${JSON.stringify(room)},"seq":${seq},"postedAt":${postedAt}${tail}`;
}
