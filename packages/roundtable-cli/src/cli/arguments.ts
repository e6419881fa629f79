// The command line, read and checked whole before anything connects or spawns: every refusal is a CliUsageError
// whose message is one line in a person's words, naming the argument, what it takes and what arrived.
import { parseArgs } from "node:util";
import { z } from "zod";
import { hasErrorCode } from "@orphus/internal";
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_HEADLINE_BYTES,
  checkMessageSize,
  type BodyTooLargeError,
  type HeadlineTooLargeError,
} from "@orphus/rooms";
import { MAX_FETCH_CHARS, MAX_FETCH_LIMIT, roleNameSchema, validRoomNameSchema } from "@orphus/roundtable-protocol";
import { shownName } from "@orphus/roundtable-client";
import { CliUsageError } from "../errors.js";
import { CLI_DEFAULT_ROLE, CLI_DEFAULT_TAIL_LINES, CLI_MAX_TAIL_LINES } from "./usage.js";

/** The commands, in the order usage lists them. */
const COMMANDS = ["status", "rooms", "tail", "fetch", "post", "view", "doctor"] as const;

type Command = (typeof COMMANDS)[number];

/** The options each command takes besides --agent-dir (every command takes it), --help and --version. */
const COMMAND_OPTIONS: Readonly<Record<Command, readonly string[]>> = {
  status: ["as"],
  rooms: ["as"],
  tail: ["as", "lines"],
  fetch: ["as", "after", "limit", "max-chars"],
  post: ["as", "headline"],
  view: ["port", "open", "post-as"],
  doctor: ["as"],
};

/** What each command takes after its name, as usage writes it. */
const COMMAND_FORMS: Readonly<Record<Command, string>> = {
  status: "roundtable status",
  rooms: "roundtable rooms",
  tail: "roundtable tail <room>",
  fetch: "roundtable fetch <room>",
  post: "roundtable post <room> <text>",
  view: "roundtable view",
  doctor: "roundtable doctor",
};

/** Validated arguments of status and rooms. */
export interface NoArgumentCommand {
  readonly command: "status" | "rooms";
}

/** Validated arguments of tail. */
export interface TailCommand {
  readonly command: "tail";
  readonly room: string;
  readonly lines: number;
}

/** Validated arguments of fetch; an option not given is left to the broker's default. */
export interface FetchCommand {
  readonly command: "fetch";
  readonly room: string;
  readonly afterSeq?: number | undefined;
  readonly limit?: number | undefined;
  readonly maxChars?: number | undefined;
}

/** Validated arguments of post: the text fits the broker's default body limit, the headline its headline limit. */
export interface PostCommand {
  readonly command: "post";
  readonly room: string;
  readonly text: string;
  readonly headline?: string | undefined;
}

/** A command that talks to the broker as a client, with its validated arguments. */
export type ClientCommand = NoArgumentCommand | TailCommand | FetchCommand | PostCommand;

/** Arguments of the commands that talk to the broker as a client. */
export interface ClientCommandArguments {
  readonly agentDir?: string | undefined;
  readonly role: string;
  readonly action: ClientCommand;
}

/** Arguments of the doctor: the role is the one sessions here use, undefined to read it from the environment. */
export interface DoctorArguments {
  readonly agentDir?: string | undefined;
  readonly role?: string | undefined;
  readonly action: { readonly command: "doctor" };
}

/** Arguments of view: the port (0: any free one), whether to open the browser, the role the page posts as. */
export interface ViewArguments {
  readonly agentDir?: string | undefined;
  readonly action: {
    readonly command: "view";
    readonly port: number;
    readonly open: boolean;
    readonly postAs?: string | undefined;
  };
}

/** Parsed and validated CLI arguments. */
export type CliArguments = ClientCommandArguments | DoctorArguments | ViewArguments;

/** A typed value, shown escaped and quoted, so an invisible character in it shows rather than vanishing; a long one cut. */
function quoted(value: string): string {
  const shown = shownName(value);
  const cut = shown.endsWith("…") && !value.endsWith("…");
  return cut ? `"${shown}" (${value.length} characters)` : `"${shown}"`;
}

/** A zod string schema that reads a whole number in [min, max], refusing anything else in the option's words. */
function wholeNumber(option: string, min: number, max: number) {
  const range =
    max === Number.MAX_SAFE_INTEGER ? `a whole number from ${min} up` : `a whole number from ${min} to ${max}`;
  return z.string().transform((text, context) => {
    const value = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN;
    if (value >= min && value <= max) return value;
    context.addIssue({ code: "custom", message: `${option} takes ${range}; got ${quoted(text)}` });
    return z.NEVER;
  });
}

/** A name checked by the protocol's schema, refused with the name as typed and the schema's rule. */
function name(schema: typeof validRoomNameSchema | typeof roleNameSchema, what: string, prefix = "") {
  return z.string().transform((text, context) => {
    const checked = schema.safeParse(text);
    if (checked.success) return checked.data;
    const rule = checked.error.issues[0]?.message ?? `not a ${what}`;
    context.addIssue({ code: "custom", message: `${prefix}${quoted(text)} is not a ${what}: ${rule}` });
    return z.NEVER;
  });
}

const room = name(validRoomNameSchema, "room name");
const role = name(roleNameSchema, "role name", "--as ");
const postAs = name(roleNameSchema, "role name", "--post-as ");
const agentDir = z.string().min(1, { error: "--agent-dir needs a directory" });

/** Node's parseArgs refusals, in a person's words. */
function parseArgsMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  const option = /'(-[^', ]*(?:, --[^' ]+)?)/.exec(message)?.[1]?.split(", ").pop();
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined) return `unknown option ${shownName(option)}`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option !== undefined) {
    return /does not take an argument/.test(message) ? `${option} takes no value` : `${option} needs a value`;
  }
  return message.split("\n")[0] ?? message;
}

/** Checks `value` against `schema`; a refusal becomes a CliUsageError with the schema's message. */
function check<T>(schema: z.ZodType<T, string>, value: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new CliUsageError(result.error.issues[0]?.message ?? "invalid argument", { cause: result.error });
}

/** Parsed options, by their command-line names. */
type OptionValues = Readonly<Record<string, string | boolean | undefined>>;

function optional<T>(values: OptionValues, option: string, schema: z.ZodType<T, string>): T | undefined {
  const value = values[option];
  return typeof value === "string" ? check(schema, value) : undefined;
}

/** The words after a command; refuses too few or too many, naming the command's form. */
function positionals(command: Command, words: readonly string[]): readonly string[] {
  const form = COMMAND_FORMS[command];
  const wanted = command === "tail" || command === "fetch" ? 1 : command === "post" ? 2 : 0;
  if (words.length < wanted) {
    const missing = words.length === 0 ? "a room" : "a text after the room";
    throw new CliUsageError(`${command} needs ${missing}: ${form}`);
  }
  if (wanted === 0 && words.length > 0)
    throw new CliUsageError(`${command} takes no arguments; got ${quoted(words.join(" "))}`);
  if (wanted === 1 && words.length > 1) {
    throw new CliUsageError(
      `${command} takes one argument, the room; got ${words.length}: ${words.map(quoted).join(" ")}`,
    );
  }
  return words;
}

/** The post's text and headline, checked against the broker's default limits with the broker's own check and words. */
function checkedPost(roomName: string, text: string, headline: string | undefined): void {
  if (text.length === 0) throw new CliUsageError("the text to post is empty");
  try {
    checkMessageSize(roomName, text, headline, {
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      maxHeadlineBytes: DEFAULT_MAX_HEADLINE_BYTES,
    });
  } catch (error) {
    const tooLarge =
      hasErrorCode<BodyTooLargeError>(error, "ERR_BODY_TOO_LARGE") ||
      hasErrorCode<HeadlineTooLargeError>(error, "ERR_HEADLINE_TOO_LARGE");
    if (tooLarge) throw new CliUsageError(error.message, { cause: error });
    throw error;
  }
}

function clientAction(
  command: Exclude<Command, "doctor" | "view">,
  words: readonly string[],
  values: OptionValues,
): ClientCommand {
  if (command === "status" || command === "rooms") return { command };
  const roomName = check(room, words[0] as string);
  if (command === "tail") {
    const lines = optional(values, "lines", wholeNumber("--lines", 0, CLI_MAX_TAIL_LINES)) ?? CLI_DEFAULT_TAIL_LINES;
    return { command, room: roomName, lines };
  }
  if (command === "fetch") {
    return {
      command,
      room: roomName,
      afterSeq: optional(values, "after", wholeNumber("--after", 0, Number.MAX_SAFE_INTEGER)),
      limit: optional(values, "limit", wholeNumber("--limit", 1, MAX_FETCH_LIMIT)),
      maxChars: optional(values, "max-chars", wholeNumber("--max-chars", 1, MAX_FETCH_CHARS)),
    };
  }
  const text = words.slice(1).join(" ");
  const headline = typeof values["headline"] === "string" ? values["headline"] : undefined;
  checkedPost(roomName, text, headline);
  return { command, room: roomName, text, headline };
}

/**
 * Parses argv (without node and the script) and checks every argument: "help" and "version" for those flags, else
 * the command with its validated arguments. Throws CliUsageError, whose message is one line, for anything wrong.
 * Nothing here connects, spawns or reads a file.
 */
export function parseCliArguments(argv: readonly string[]): CliArguments | "help" | "version" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
        "agent-dir": { type: "string" },
        as: { type: "string" },
        lines: { type: "string" },
        after: { type: "string" },
        limit: { type: "string" },
        "max-chars": { type: "string" },
        headline: { type: "string" },
        port: { type: "string" },
        open: { type: "boolean" },
        "post-as": { type: "string" },
      },
    });
  } catch (error) {
    throw new CliUsageError(parseArgsMessage(error), { cause: error });
  }
  const { values, positionals: words } = parsed;
  if (values.help === true) return "help";
  if (values.version === true) return "version";
  const [word, ...rest] = words;
  if (word === undefined) throw new CliUsageError(`no command given (one of ${COMMANDS.join(", ")})`);
  const command = COMMANDS.find((c) => c === word);
  if (command === undefined) throw new CliUsageError(`unknown command ${quoted(word)} (one of ${COMMANDS.join(", ")})`);
  for (const option of Object.keys(values)) {
    if (option === "agent-dir" || COMMAND_OPTIONS[command].includes(option)) continue;
    const takers = COMMANDS.filter((c) => COMMAND_OPTIONS[c].includes(option));
    throw new CliUsageError(`--${option} does not apply to ${command} (it is for ${takers.join(" and ")})`);
  }
  const checkedWords = positionals(command, rest);
  const dir = optional(values, "agent-dir", agentDir);
  if (command === "doctor") return { agentDir: dir, role: optional(values, "as", role), action: { command } };
  if (command === "view") {
    const port = optional(values, "port", wholeNumber("--port", 0, 65_535)) ?? 0;
    return {
      agentDir: dir,
      action: { command, port, open: values["open"] === true, postAs: optional(values, "post-as", postAs) },
    };
  }
  const speaker = optional(values, "as", role) ?? CLI_DEFAULT_ROLE;
  return { agentDir: dir, role: speaker, action: clientAction(command, checkedWords, values) };
}
