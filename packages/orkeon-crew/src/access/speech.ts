import type { McpToolAnnotations, McpToolCall } from "./table.js";

/** The speech server's name, as its MCP tools are called. */
export const SPEECH_SERVER = "speech";

/**
 * The speech server's tools and their annotations: transcribe_audio, list_audio and whisper_info carry
 * readOnlyHint=true and run in dontAsk without an allow rule; record_and_transcribe, speak and stop_speaking open the
 * microphone or the speaker and carry none.
 */
export const SPEECH_TOOL_ANNOTATIONS: Readonly<Record<string, McpToolAnnotations>> = Object.freeze({
  transcribe_audio: Object.freeze({ readOnlyHint: true }),
  list_audio: Object.freeze({ readOnlyHint: true }),
  whisper_info: Object.freeze({ readOnlyHint: true }),
  record_and_transcribe: Object.freeze({}),
  speak: Object.freeze({}),
  stop_speaking: Object.freeze({}),
});

/** A call of one of the speech server's tools, with the annotations it lists (none for a tool it does not list). */
export function speechToolCall(tool: string, args?: unknown): McpToolCall {
  const annotations = Object.hasOwn(SPEECH_TOOL_ANNOTATIONS, tool) ? SPEECH_TOOL_ANNOTATIONS[tool] : undefined;
  return annotations === undefined
    ? { kind: "mcp", server: SPEECH_SERVER, tool, args }
    : { kind: "mcp", server: SPEECH_SERVER, tool, args, annotations };
}
