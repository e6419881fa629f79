// Real pi sessions for the tests: pi's SDK (createAgentSession) with in-memory session storage, settings and auth,
// no discovered resources, no built-in tools, and a scripted model: pi-ai's faux provider, one registration per
// session so each session's script is its own.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  fauxAssistantMessage,
  fauxText,
  fauxToolCall,
  registerFauxProvider,
  type AssistantMessage,
  type FauxProviderRegistration,
  type FauxResponseStep,
} from "@mariozechner/pi-ai";
import { afterEach } from "vitest";
import {
  AuthStorage,
  DefaultResourceLoader,
  ModelRegistry,
  SessionManager,
  SettingsManager,
  createAgentSession,
  type AgentSession,
  type ExtensionFactory,
  type ExtensionUIContext,
} from "@mariozechner/pi-coding-agent";

/** One notice the session's UI showed (what /roundtable prints). */
export interface Notice {
  readonly text: string;
  readonly level: string;
}

/** A pi session under test. */
export interface PiSession {
  readonly session: AgentSession;
  /** The session's scripted model (registered again after a reload, which resets pi's provider registry). */
  readonly faux: FauxProviderRegistration;
  /** What the UI was asked to show. */
  readonly notices: Notice[];
  /** Sends one prompt; the model answers with `steps`, then (unless the last step ends it) a closing text. */
  prompt(text: string, steps: readonly FauxResponseStep[]): Promise<void>;
  /** pi's /reload: session_shutdown to the old copies of the extensions, then fresh copies are loaded. */
  reload(): Promise<void>;
  /** Runs a slash command the way pi does for typed input. */
  command(line: string): Promise<void>;
  /** The session's stored messages (its context), from its session manager. */
  storedMessages(): StoredMessage[];
  /** pi's quit: session_shutdown to the extensions, then the session is disposed. */
  shutdown(): Promise<void>;
}

/** A message as the session stored it: tool results, custom messages (pings), user and assistant messages. */
export type StoredMessage =
  | {
      readonly role: "toolResult";
      readonly toolName: string;
      readonly toolCallId: string;
      readonly text: string;
      readonly isError: boolean;
      readonly details: unknown;
    }
  | { readonly role: "custom"; readonly customType: string; readonly text: string; readonly details: unknown }
  | { readonly role: "user"; readonly text: string }
  | { readonly role: "assistant"; readonly text: string; readonly toolCalls: readonly ToolCallSeen[] };

/** A tool call an assistant message made. */
export interface ToolCallSeen {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** Options of {@link openPiSession}. */
export interface PiSessionOptions {
  /** The extensions to load, in order (the same factory twice stands for a second load). */
  readonly extensions: readonly ExtensionFactory[];
  /** Extension paths pi loads itself (a file, or a package directory whose manifest names its entry), before those. */
  readonly extensionPaths?: readonly string[];
  /** The session's name (`/name`), set before the extensions bind. */
  readonly name?: string;
  /** CLI flag values, as `pi --roundtable-role x` would set them. */
  readonly flags?: Readonly<Record<string, string>>;
  /** Whether the session has a UI (interactive mode); false is print mode, where notify does nothing. */
  readonly hasUI?: boolean;
}

let sessions = 0;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: string; text?: string }) => (part.type === "text" ? (part.text ?? "") : ""))
    .join("");
}

function recordingUi(notices: Notice[]): ExtensionUIContext {
  // Only notify is used by the extension; the rest of the interface answers like pi's no-op UI.
  const ui: Partial<ExtensionUIContext> = {
    notify: (text: string, level?: string) => void notices.push({ text, level: level ?? "info" }),
  };
  return new Proxy(ui, {
    get: (target, key) => (key in target ? target[key as keyof ExtensionUIContext] : () => undefined),
  }) as ExtensionUIContext;
}

/** Opens a pi session through the SDK with the given extensions and a faux model. */
export async function openPiSession(options: PiSessionOptions): Promise<PiSession> {
  const id = ++sessions;
  const home = mkdtempSync(join(tmpdir(), "rtpi-"));
  const fauxOptions = { provider: `faux-${id}`, api: `faux-${id}`, models: [{ id: "scripted" }] };
  let faux = registerFauxProvider(fauxOptions);
  const authStorage = AuthStorage.inMemory();
  authStorage.setRuntimeApiKey(`faux-${id}`, "scripted");
  const modelRegistry = ModelRegistry.inMemory(authStorage);
  const settingsManager = SettingsManager.inMemory({ compaction: { enabled: false }, retry: { enabled: false } });
  const resourceLoader = new DefaultResourceLoader({
    cwd: home,
    agentDir: home,
    settingsManager,
    noExtensions: true,
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
    extensionFactories: [...options.extensions],
    additionalExtensionPaths: [...(options.extensionPaths ?? [])],
  });
  await resourceLoader.reload();
  const sessionManager = SessionManager.inMemory(home);
  if (options.name !== undefined) sessionManager.appendSessionInfo(options.name);
  const { session } = await createAgentSession({
    cwd: home,
    agentDir: home,
    model: faux.getModel(),
    thinkingLevel: "off",
    authStorage,
    modelRegistry,
    resourceLoader,
    sessionManager,
    settingsManager,
    noTools: "builtin",
  });
  for (const [name, value] of Object.entries(options.flags ?? {})) session.extensionRunner.setFlagValue(name, value);
  const notices: Notice[] = [];
  await session.bindExtensions(options.hasUI === false ? {} : { uiContext: recordingUi(notices) });
  let closed = false;
  return {
    session,
    get faux() {
      return faux;
    },
    notices,
    reload: async () => {
      await session.reload();
      faux = registerFauxProvider(fauxOptions);
    },
    prompt: async (text, steps) => {
      const last = steps[steps.length - 1];
      const ends = last !== undefined && typeof last !== "function" && last.stopReason !== "toolUse";
      faux.setResponses([...steps, ...(ends ? [] : [fauxAssistantMessage(fauxText("Done."))])]);
      await session.prompt(text);
    },
    command: (line) => session.prompt(line),
    storedMessages: () =>
      sessionManager.getEntries().flatMap((entry): StoredMessage[] => {
        if (entry.type === "custom_message") {
          return [
            { role: "custom", customType: entry.customType, text: textOf(entry.content), details: entry.details },
          ];
        }
        if (entry.type !== "message") return [];
        const message = entry.message;
        if (message.role === "toolResult") {
          return [
            {
              role: "toolResult",
              toolName: message.toolName,
              toolCallId: message.toolCallId,
              text: textOf(message.content),
              isError: message.isError,
              details: message.details,
            },
          ];
        }
        if (message.role === "user") return [{ role: "user", text: textOf(message.content) }];
        if (message.role !== "assistant") return [];
        const toolCalls = message.content.flatMap((part) =>
          part.type === "toolCall" ? [{ id: part.id, name: part.name, arguments: part.arguments }] : [],
        );
        return [{ role: "assistant", text: textOf(message.content), toolCalls }];
      }),
    shutdown: async () => {
      if (closed) return;
      closed = true;
      // What AgentSessionRuntime.dispose() does when pi quits.
      await session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" });
      session.dispose();
      faux.unregister();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The arguments of the call a tool result answers, found in the assistant message that made it. */
export function callOf(messages: readonly StoredMessage[], toolCallId: string): Record<string, unknown> | undefined {
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    const call = message.toolCalls.find((c) => c.id === toolCallId);
    if (call !== undefined) return call.arguments;
  }
  return undefined;
}

/** The model calls a tool once (and, after its result, the next step runs). */
export function callTool(name: string, input: Record<string, unknown>): AssistantMessage {
  return fauxAssistantMessage(fauxToolCall(name, input), { stopReason: "toolUse" });
}

/** The model calls the roundtable tool once. */
export function callRoundtable(input: Record<string, unknown>): AssistantMessage {
  return callTool("roundtable", input);
}

/** Per test: the sessions it opens through the returned function are shut down after it, as pi does on quit. */
export function useSessions(): (options: PiSessionOptions) => Promise<PiSession> {
  const open: PiSession[] = [];
  afterEach(async () => {
    for (const session of open.splice(0)) await session.shutdown();
  });
  return async (options) => {
    const session = await openPiSession(options);
    open.push(session);
    return session;
  };
}

/** The ping lines a session stored. */
export function pingsOf(messages: readonly StoredMessage[]): string[] {
  return messages.flatMap((m) => (m.role === "custom" && m.customType === "roundtable" ? [m.text] : []));
}

/**
 * Resolves once the session's client has handled every event the broker sent it before this call: `/roundtable
 * status` asks the broker over the client's own connection (a rooms request), and the broker writes to a connection
 * in order, so each event sent before has been read first. The status goes to the UI, never into the context; a
 * session whose client is not connected has no such round trip, and fails here.
 */
export async function caughtUp(session: PiSession): Promise<void> {
  const before = session.notices.length;
  await session.command("/roundtable status");
  const status = session.notices
    .slice(before)
    .map((notice) => notice.text)
    .join("\n");
  if (!/^broker: .*, connected$/m.test(status))
    throw new Error(`no round trip to the broker in the status:\n${status}`);
}
