// Key names the JavaScript side reads (the script builds the same ones): names are length-prefixed in UTF-8 bytes,
// as Lua's string.len counts them, so no name can reach another's keys.

const segment = (kind: string, name: string): string => `${kind}:${Buffer.byteLength(name, "utf8")}:${name}`;

/** The store-wide stream of joins, which tells every broker when one of its roles joined a room elsewhere. */
export const joinsKey = (prefix: string): string => `${prefix}joins`;

/** A room's stream of body-free activity: posts (seq and author), leaves and disconnects. */
export const activityKey = (prefix: string, room: string): string => `${prefix}${segment("room", room)}:activity`;

/** A broker's wake-up stream: written to end its blocking read when it starts watching another room. */
export const wakeKey = (prefix: string, brokerId: string): string => `${prefix}${segment("broker", brokerId)}:wake`;
