/**
 * JSON strings of room and role names, each remembering the last one: the texts the broker writes per post (the
 * reply, the entry of a posts event) name the same room and author post after post, and `JSON.stringify` of even a
 * short string is a call into the serializer each time. One slot per kind, so rooms and authors do not evict each
 * other.
 */
function lastJsonOf(): (name: string) => string {
  let lastName: string | undefined;
  let lastJson = "";
  return (name) => {
    if (name !== lastName) {
      lastJson = JSON.stringify(name);
      lastName = name;
    }
    return lastJson;
  };
}

/** The JSON string of a room name. */
export const roomJson = lastJsonOf();

/** The JSON string of a role name (a post's author). */
export const roleJson = lastJsonOf();
