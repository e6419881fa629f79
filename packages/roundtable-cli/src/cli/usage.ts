// What `roundtable --help` says, the exit codes it promises, and the defaults both name.
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_HEADLINE_BYTES } from "@orphus/rooms";
import {
  DEFAULT_FETCH_CHARS,
  DEFAULT_FETCH_LIMIT,
  MAX_FETCH_CHARS,
  MAX_FETCH_LIMIT,
  MAX_VALID_ROOM_NAME_LENGTH,
} from "@orphus/roundtable-protocol";

/** Exit codes of the `roundtable` CLI. */
export const CLI_EXIT = {
  /** Done; doctor: no problem found (hints aside). */
  ok: 0,
  /** The broker refused, the connection was lost, or the request failed; doctor: a problem found, or it could not look. */
  failed: 1,
  /** The arguments are wrong (a text over the broker's limit included); one line says which. */
  usage: 2,
  /** No broker is running, and the command does not start one (status, rooms, tail, fetch). */
  noBroker: 3,
} as const;

/** The role the CLI speaks as when `--as` is not given: the person at the terminal. */
export const CLI_DEFAULT_ROLE = "human";

/** Messages `tail` prints before following, when `--lines` is not given. */
export const CLI_DEFAULT_TAIL_LINES = 10;

/** Most messages `tail --lines` may ask for. */
export const CLI_MAX_TAIL_LINES = 200;

/** The line that follows every usage error. */
export const CLI_HELP_POINTER = "(roundtable --help shows the usage)";

export const CLI_USAGE = `Usage: roundtable <command> [options]

Watch and poke the roundtable broker of an agent directory.

Commands:
  status               the broker: socket, pid, uptime, version, rooms with members and messages
  rooms                the rooms, one per line
  tail <room>          print the last messages of a room, then follow new ones until Ctrl-C
  fetch <room>         print one page of a room's messages in full, and how to read on
  post <room> <text>   post a message (starts a broker when none is running); the words after the room are the text
  view                 a live view of the broker in the browser, on 127.0.0.1 only, until Ctrl-C (starts a broker
                       when none is running); prints its URL, whose token every request needs
  doctor               find what silently goes wrong (split fleet, stale socket, permissions, protocol version,
                       role names that do not survive a restart, an empty memory store) and say what to do

Options:
  --agent-dir <dir>    agent directory (default: $ORPHUS_CODING_AGENT_DIR, else ~/.orphus/agent)
  --as <role>          role to speak as (default: ${CLI_DEFAULT_ROLE}); doctor: the role sessions here use
                       (default: $ORPHUS_ROUNDTABLE_ROLE)
  --lines <n>          tail: messages to show before following, 0 to ${CLI_MAX_TAIL_LINES} (default: ${CLI_DEFAULT_TAIL_LINES})
  --after <seq>        fetch: messages numbered above this (default: the role's read position)
  --limit <n>          fetch: most messages on the page, 1 to ${MAX_FETCH_LIMIT} (default: ${DEFAULT_FETCH_LIMIT})
  --max-chars <n>      fetch: most characters of message text on the page, 1 to ${MAX_FETCH_CHARS} (default:
                       ${DEFAULT_FETCH_CHARS}); a longer message still comes whole when it is the first of its page
  --headline <text>    post: one-line summary a digest falls back to
  --port <n>           view: the port on 127.0.0.1, 0 to 65535 (default: 0, any free port)
  --open               view: open the URL in the system's browser
  --post-as <role>     view: let the page post as this role (it joins the room it posts to); default: read only
  -h, --help           this help
  --version            the version

Names and sizes:
  <room>    1 to ${MAX_VALID_ROOM_NAME_LENGTH} lower-case letters, digits, '.', '_' or '-', starting with a letter or digit
            (design, release-1.2); post creates the room, the other commands read only rooms that exist
  <role>    1 to 64 letters (either case), digits, '.', '_' or '-', starting with a letter or digit
  <text>    at most ${DEFAULT_MAX_BODY_BYTES} bytes in UTF-8 (32 KiB: that many ASCII characters, fewer accented or wider
            ones); a headline at most ${DEFAULT_MAX_HEADLINE_BYTES} bytes

status, rooms, tail, fetch and doctor never start a broker; view watches as no member of any room. Exit codes: 0 done
(doctor: no problem found; it may print hints; view: stopped by Ctrl-C), 1 failed (doctor: a problem found, or it
could not look), 2 bad arguments (one line says which), 3 no broker running (status, rooms, tail, fetch).
`;
