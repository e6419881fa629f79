import { actionArgumentsJsonSchema } from "@orphus/shared-tool";
import {
  ROUNDTABLE_ACTIONS,
  ROUNDTABLE_TOOL_NAME,
  TOOL_DEFAULT_DIGEST_BUDGET,
  TOOL_DEFAULT_FETCH_CHARS,
  TOOL_DEFAULT_FETCH_LIMIT,
  TOOL_DEFAULT_WAIT_MS,
  TOOL_MAX_DIGEST_BUDGET,
  TOOL_MAX_FETCH_CHARS,
  TOOL_MAX_FETCH_LIMIT,
  TOOL_MAX_POST_CHARS,
  TOOL_MAX_WAIT_MS,
  roundtableActionSchemas,
  type RoundtableAction,
} from "@orphus/roundtable-client";

/** MCP's tool annotations, as this server sets them: every hint explicit, none left to a client's default. */
export interface RoundtableMcpToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  /** Meaningful only when not read-only: false, since no action deletes or overwrites anything. */
  readonly destructiveHint: boolean;
  /** Meaningful only when not read-only: true when repeating the call changes nothing more. */
  readonly idempotentHint: boolean;
  /** False: the tools reach only the local broker of one agent directory. */
  readonly openWorldHint: boolean;
}

/** The annotations of one of this server's tools, every hint spelled out; no tool reaches beyond local state. */
export function toolAnnotations(
  title: string,
  hints: { readonly readOnly: boolean; readonly destructive: boolean; readonly idempotent: boolean },
): RoundtableMcpToolAnnotations {
  return {
    title,
    readOnlyHint: hints.readOnly,
    destructiveHint: hints.destructive,
    idempotentHint: hints.idempotent,
    openWorldHint: false,
  };
}

/** One MCP tool: one action of the shared `roundtable` tool, with its own schema and annotations. */
export interface RoundtableMcpTool {
  /** `roundtable_<action>`. */
  readonly name: string;
  /** The action of the shared tool this MCP tool runs. */
  readonly action: RoundtableAction;
  readonly title: string;
  readonly description: string;
  readonly annotations: RoundtableMcpToolAnnotations;
  /** JSON Schema (draft 2020-12) of the arguments: the action's schema without its `action` member. */
  readonly inputSchema: { readonly type: "object"; readonly [key: string]: unknown };
}

/** The MCP tool name of an action: `roundtable_<action>`, so a host that lists tools bare still says what they are. */
export function mcpToolName(action: RoundtableAction): string {
  return `${ROUNDTABLE_TOOL_NAME}_${action}`;
}

interface ToolText {
  readonly title: string;
  readonly description: string;
  /** Reads the room without changing it or anyone else's position in it. */
  readonly readOnly: boolean;
  readonly idempotent: boolean;
}

const seconds = (ms: number): number => ms / 1000;

// Descriptions are per action because MCP annotations are per tool (see the README's "One tool per action"); the
// limits in them come from the shared tool's constants, and the handlers are the shared tool's.
const TEXTS: Record<RoundtableAction, ToolText> = {
  join: {
    title: "Join a roundtable room",
    description:
      "Enter a roundtable room (created if it does not exist) to deliberate with other agents. Returns the members " +
      "and how many messages you have not read. Join before you post, digest, fetch or wait; after the broker " +
      "restarts, join again.",
    readOnly: false,
    idempotent: true,
  },
  leave: {
    title: "Leave a roundtable room",
    description:
      "Leave a roundtable room. Your read position is kept: join again to resume where you stopped. Leaving a room " +
      "you are not in does nothing.",
    readOnly: false,
    idempotent: true,
  },
  post: {
    title: "Post to a roundtable room",
    description:
      `Say something in a room you joined (at most ${TOOL_MAX_POST_CHARS} characters). Other agents read it in ` +
      "their digests, whole, as an excerpt or as its headline when their budget is short: give a one-line headline " +
      "for a long body. " +
      "Returns the message's sequence number.",
    readOnly: false,
    idempotent: false,
  },
  digest: {
    title: "Read your unread roundtable messages",
    description:
      "Your unread messages in a room you joined, within a character budget (default " +
      `${TOOL_DEFAULT_DIGEST_BUDGET}, at most ${TOOL_MAX_DIGEST_BUDGET}) spent newest first: whole messages, then ` +
      "excerpts that end by saying how many characters follow and the afterSeq that fetches the rest, then one-line " +
      "headlines. A first marker line counts what did not fit and names the afterSeq that fetches it. Marks them " +
      "read. Nothing is pushed to you: call this (or wait) to see what others said.",
    readOnly: true,
    idempotent: false,
  },
  fetch: {
    title: "Fetch roundtable messages in full",
    description:
      "Messages of a room you joined in full, numbered after afterSeq (default: your read position), one page at " +
      `a time: up to ${TOOL_DEFAULT_FETCH_LIMIT} messages (limit, at most ${TOOL_MAX_FETCH_LIMIT}) and ` +
      `${TOOL_DEFAULT_FETCH_CHARS} characters (maxChars, at most ${TOOL_MAX_FETCH_CHARS}) by default. A message ` +
      "longer than the cap still comes whole when it is the first of its page. When there is more, the result " +
      "ends with the afterSeq to fetch next. Use it when a digest collapsed something you need. Marks what it " +
      "returns read.",
    readOnly: true,
    idempotent: false,
  },
  rooms: {
    title: "List roundtable rooms",
    description:
      "Every room on the broker: members, newest sequence number, and your unread count in the rooms you joined.",
    readOnly: true,
    idempotent: true,
  },
  members: {
    title: "List a roundtable room's members",
    description: "The roles that are members of a room.",
    readOnly: true,
    idempotent: true,
  },
  wait: {
    title: "Wait for a roundtable post",
    description:
      "Block until another agent posts in a room you joined (or only in the room named), for at most " +
      `timeoutSeconds (default ${seconds(TOOL_DEFAULT_WAIT_MS)}, at most ${seconds(TOOL_MAX_WAIT_MS)}). Returns at ` +
      "once when something is already unread. Says which rooms have news; call digest to read it.",
    readOnly: true,
    idempotent: true,
  },
};

function argumentsSchema(action: RoundtableAction): RoundtableMcpTool["inputSchema"] {
  // The shared schemas are closed, and so is this one: `additionalProperties: false`, an unknown argument an isError.
  return actionArgumentsJsonSchema(roundtableActionSchemas[action]);
}

function defineTool(action: RoundtableAction): RoundtableMcpTool {
  const text = TEXTS[action];
  return {
    name: mcpToolName(action),
    action,
    title: text.title,
    description: text.description,
    annotations: toolAnnotations(text.title, {
      readOnly: text.readOnly,
      destructive: false,
      idempotent: text.idempotent,
    }),
    inputSchema: argumentsSchema(action),
  };
}

/** The server's tools, one per action of the shared tool, in the shared tool's action order. */
export const ROUNDTABLE_MCP_TOOLS: readonly RoundtableMcpTool[] = Object.freeze(ROUNDTABLE_ACTIONS.map(defineTool));

/** Looks a tool up by its MCP name. */
export function findRoundtableMcpTool(name: string): RoundtableMcpTool | undefined {
  return ROUNDTABLE_MCP_TOOLS.find((tool) => tool.name === name);
}
