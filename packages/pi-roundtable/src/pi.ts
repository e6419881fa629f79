// The part of pi's extension API this package uses, declared by shape. pi's own ExtensionAPI satisfies it (the tests
// type-check that by handing the extension to pi's SDK), so the published types name no pi module: a consumer
// type-checks them without pi's dependency tree, and any pi whose API keeps this shape fits the "*" peer range.

/** What pi passes to event handlers, tools and commands, as far as this package reads it. */
export interface PiContext {
  /** True while no run is going on. */
  isIdle(): boolean;
  /** False in print and JSON modes, where `ui` does nothing. */
  readonly hasUI: boolean;
  readonly ui: { notify(message: string, type?: "info" | "warning" | "error"): void };
}

/** What a tool's `execute` returns to pi. */
export interface PiToolResult {
  readonly content: { type: "text"; text: string }[];
  readonly details: unknown;
}

/** A tool as pi's `registerTool` takes it, as far as this package fills it in. */
export interface PiToolDefinition {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly promptSnippet?: string;
  /** JSON Schema; pi validates (and coerces) arguments against it before `execute`. */
  readonly parameters: object;
  readonly prepareArguments?: (args: unknown) => unknown;
  execute(
    toolCallId: string,
    params: unknown,
    signal: AbortSignal | undefined,
    onUpdate: unknown,
    ctx: PiContext,
  ): Promise<PiToolResult>;
}

/** A slash command as pi's `registerCommand` takes it. */
export interface PiCommand {
  readonly description?: string;
  readonly getArgumentCompletions?: (prefix: string) => { value: string; label: string }[] | null;
  handler(args: string, ctx: PiContext): Promise<void>;
}

/** The event of pi's `tool_result` hook, as far as this package reads it. */
export interface PiToolResultEvent {
  readonly toolName: string;
  readonly details: unknown;
}

/** pi's event bus, shared by the extensions of one session (`pi.events`); it delivers synchronously. */
export interface PiEventBus {
  emit(channel: string, data: unknown): void;
  on(channel: string, handler: (data: unknown) => void): () => void;
}

/** The part of pi's ExtensionAPI this package calls. */
export interface PiExtensionApi {
  on(event: "session_start", handler: (event: unknown, ctx: PiContext) => void): void;
  on(event: "session_shutdown", handler: (event: unknown, ctx: PiContext) => void): void;
  on(event: "tool_call", handler: (event: unknown, ctx: PiContext) => void): void;
  on(
    event: "tool_result",
    handler: (event: PiToolResultEvent, ctx: PiContext) => { isError?: boolean } | undefined | void,
  ): void;
  registerTool(tool: PiToolDefinition): void;
  registerCommand(name: string, command: PiCommand): void;
  registerFlag(
    name: string,
    options: { description?: string; type: "boolean" | "string"; default?: boolean | string },
  ): void;
  getFlag(name: string): boolean | string | undefined;
  getSessionName(): string | undefined;
  sendMessage(message: { customType: string; content: string; display: boolean; details?: unknown }): void;
  readonly events: PiEventBus;
}
