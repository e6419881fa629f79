/** Longest Unix socket path on Linux, in bytes, counting the terminating NUL of `sun_path`. */
export const LINUX_SOCKET_PATH_LIMIT = 108;

/** Longest Unix socket path on macOS and the BSDs, in bytes, counting the terminating NUL of `sun_path`. */
export const BSD_SOCKET_PATH_LIMIT = 104;

/** Entries the broker registry lists at most; further files in the registry directory are ignored. */
export const MAX_REGISTRY_ENTRIES = 256;

/** Largest registry entry file read, in bytes; a larger file is reported as invalid and not parsed. */
export const MAX_REGISTRY_ENTRY_BYTES = 4096;

/** Largest file the bin reads a store password from, in bytes. */
export const MAX_STORE_PASSWORD_FILE_BYTES = 4096;
