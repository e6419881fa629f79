// Key names the JavaScript side reads (the script builds the same ones): names are length-prefixed in UTF-8 bytes,
// as Lua's string.len counts them, so no name can reach another's keys.

const segment = (kind: string, name: string): string => `${kind}:${Buffer.byteLength(name, "utf8")}:${name}`;

/** A broker's inbox: the body-free activity of other brokers in rooms where it holds a recipient. */
export const inboxKey = (prefix: string, brokerId: string): string => `${prefix}${segment("broker", brokerId)}:inbox`;
