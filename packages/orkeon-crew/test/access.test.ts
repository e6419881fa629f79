import { describe, expect, test } from "vitest";
import {
  accessOf,
  catalogue,
  DEFAULT_TOOL_TABLE,
  fallbackDecision,
  gateDecision,
  isExposed,
  MODE_NAMES,
  SPEECH_TOOL_ANNOTATIONS,
  speechToolCall,
  toolRuleName,
  type ToolCall,
} from "@orphus/orkeon-crew";

const builtin = (tool: string, args?: unknown): ToolCall => ({ kind: "builtin", tool, args });
const github = (action: unknown) => builtin("github", { action, repo: "o/r" });
const http = (method?: unknown) =>
  builtin("http_api", method === undefined ? { url: "https://x" } : { url: "https://x", method });

describe("the access one call declares", () => {
  test.each([
    "get_repo",
    "get_issue",
    "list_issues",
    "search_issues",
    "get_pr",
    "list_prs",
    "get_pr_diff",
    "get_file",
    "search_code",
    "list_commits",
  ])("github %s reads", (action) => expect(accessOf(github(action))).toBe("read"));

  test.each<[string, unknown]>([
    ["create_issue", "create_issue"],
    ["create_pr", "create_pr"],
    ["an unknown action", "delete_repo"],
    ["a differently cased read", "GET_ISSUE"],
    ["a missing action", undefined],
    ["an action that is not a string", 7],
  ])("github executes for %s", (_, action) => expect(accessOf(github(action))).toBe("execute"));

  test("github's action is never read off the prototype", () => {
    const args = Object.create({ action: "get_issue" }) as object;
    expect(accessOf(builtin("github", args))).toBe("execute");
    expect(accessOf(builtin("github", null))).toBe("execute");
  });

  test.each(["GET", "HEAD", "OPTIONS", "get", "Head", "options"])("http_api %s reads", (method) =>
    expect(accessOf(http(method))).toBe("read"),
  );

  test("http_api reads for a missing method", () => {
    expect(accessOf(http())).toBe("read");
    expect(accessOf(builtin("http_api"))).toBe("read");
  });

  test.each<unknown>(["POST", "PUT", "PATCH", "DELETE", "CONNECT", " GET", "", null, 1])(
    "http_api %j executes",
    (method) => expect(accessOf(http(method))).toBe("execute"),
  );

  test("rag_eval and web_search read", () => {
    expect(accessOf(builtin("rag_eval", { collection: "docs" }))).toBe("read");
    expect(accessOf(builtin("web_search", { q: "x" }))).toBe("read");
  });

  test("an MCP tool declares what its readOnlyHint says", () => {
    const call = (readOnlyHint?: unknown): ToolCall => ({
      kind: "mcp",
      server: "s",
      tool: "t",
      ...(readOnlyHint === undefined ? {} : { annotations: { readOnlyHint: readOnlyHint as boolean } }),
    });
    expect(accessOf(call(true))).toBe("read");
    expect(accessOf(call(false))).toBe("execute");
    expect(accessOf(call())).toBe("execute");
    expect(accessOf(call("true"))).toBe("execute");
  });

  test("the speech server: transcribe_audio, list_audio, whisper_info read; the microphone and speaker execute", () => {
    expect(Object.keys(SPEECH_TOOL_ANNOTATIONS)).toEqual([
      "transcribe_audio",
      "list_audio",
      "whisper_info",
      "record_and_transcribe",
      "speak",
      "stop_speaking",
    ]);
    const access = Object.fromEntries(
      Object.keys(SPEECH_TOOL_ANNOTATIONS).map((t) => [t, accessOf(speechToolCall(t))]),
    );
    expect(access).toEqual({
      transcribe_audio: "read",
      list_audio: "read",
      whisper_info: "read",
      record_and_transcribe: "execute",
      speak: "execute",
      stop_speaking: "execute",
    });
    expect(accessOf(speechToolCall("unlisted"))).toBe("execute");
  });

  test("an unknown built-in tool, or a row whose access throws, executes", () => {
    expect(accessOf(builtin("rm_rf"))).toBe("execute");
    expect(accessOf(builtin("constructor"))).toBe("execute");
    const table = {
      ...DEFAULT_TOOL_TABLE,
      odd: {
        family: "local-read" as const,
        access: () => {
          throw new Error("bad row");
        },
      },
    };
    expect(accessOf(builtin("odd"), table)).toBe("execute");
  });
});

describe("the catalogue by mode", () => {
  test("github and rag_eval sit with the edits, http_api out of the read-only modes", () => {
    for (const mode of ["plan", "dontAsk"] as const) {
      expect(catalogue(mode)).toEqual(["list_files", "read_file", "search_files", "web_search"]);
    }
    for (const mode of ["default", "acceptEdits", "confirmWaves"] as const) {
      expect(catalogue(mode)).toEqual([
        "edit_file",
        "github",
        "http_api",
        "list_files",
        "rag_eval",
        "read_file",
        "search_files",
        "web_search",
        "write_file",
      ]);
    }
  });

  test("whatever one call declares: a github read or an http_api GET stays withheld in plan", () => {
    expect(isExposed("plan", github("get_issue"))).toBe(false);
    expect(isExposed("dontAsk", http("GET"))).toBe(false);
    expect(isExposed("plan", builtin("rag_eval"))).toBe(false);
  });

  test("MCP tools are offered in every mode; the gate decides per call", () => {
    expect(isExposed("plan", speechToolCall("speak"))).toBe(true);
  });
});

describe("the gate", () => {
  test("in default an http_api GET runs without a question; a POST is asked", () => {
    expect(gateDecision("default", http("GET"))).toBe("allow");
    expect(gateDecision("default", http())).toBe("allow");
    expect(gateDecision("default", http("POST"))).toBe("ask");
  });

  test("a project that must not reach out adds the deny rule http_api", () => {
    expect(gateDecision("default", http("GET"), { allow: [], deny: ["http_api"] })).toBe("deny");
  });

  test("the speech server's read-only tools run in dontAsk without an allow rule; the others need one", () => {
    expect(gateDecision("dontAsk", speechToolCall("transcribe_audio"))).toBe("allow");
    expect(gateDecision("dontAsk", speechToolCall("speak"))).toBe("deny");
    expect(gateDecision("dontAsk", speechToolCall("speak"), { allow: ["mcp__speech__speak"], deny: [] })).toBe("allow");
    expect(gateDecision("dontAsk", speechToolCall("speak"), { allow: ["mcp__speech"], deny: [] })).toBe("allow");
  });

  test("plan denies every execute, allow rule or not", () => {
    expect(gateDecision("plan", speechToolCall("speak"), { allow: ["mcp__speech__speak"], deny: [] })).toBe("deny");
    expect(gateDecision("plan", speechToolCall("list_audio"))).toBe("allow");
    expect(gateDecision("plan", github("get_issue"), { allow: ["github"], deny: [] })).toBe("deny");
  });

  test("edits are asked in default and confirmWaves, allowed in acceptEdits", () => {
    expect(gateDecision("default", builtin("write_file"))).toBe("ask");
    expect(gateDecision("confirmWaves", builtin("edit_file"))).toBe("ask");
    expect(gateDecision("acceptEdits", builtin("write_file"))).toBe("allow");
    expect(gateDecision("acceptEdits", github("create_pr"))).toBe("ask");
    expect(gateDecision("default", github("create_pr"), { allow: ["github"], deny: [] })).toBe("allow");
  });

  test("rule names", () => {
    expect(toolRuleName(builtin("github"))).toBe("github");
    expect(toolRuleName(speechToolCall("speak"))).toBe("mcp__speech__speak");
  });
});

describe("the gateless fallback guard", () => {
  // Finding 5 of issue 16: in the writing modes the fallback allowed whatever the catalogue offered, so it ran
  // without a question what the gate would have asked about. It reads the per-call access table instead.
  test("in the writing modes it reads the per-call access: a declared read runs, what the gate would ask is refused", () => {
    for (const mode of ["default", "acceptEdits", "confirmWaves"] as const) {
      expect(fallbackDecision(mode, github("get_issue"))).toBe("allow");
      expect(fallbackDecision(mode, github("create_pr"))).toBe("deny");
      expect(fallbackDecision(mode, github("create_issue"))).toBe("deny");
      expect(fallbackDecision(mode, github("delete_repo"))).toBe("deny");
      expect(fallbackDecision(mode, http("GET"))).toBe("allow");
      expect(fallbackDecision(mode, http())).toBe("allow");
      expect(fallbackDecision(mode, http("POST"))).toBe("deny");
      expect(fallbackDecision(mode, builtin("rag_eval"))).toBe("allow");
      expect(fallbackDecision(mode, builtin("web_search"))).toBe("allow");
      expect(fallbackDecision(mode, speechToolCall("transcribe_audio"))).toBe("allow");
      expect(fallbackDecision(mode, speechToolCall("speak"))).toBe("deny");
      expect(fallbackDecision(mode, builtin("read_file"))).toBe("allow");
      expect(fallbackDecision(mode, builtin("rm_rf"))).toBe("deny");
    }
    // The edits: acceptEdits runs them without a question, the other writing modes ask.
    expect(fallbackDecision("acceptEdits", builtin("write_file"))).toBe("allow");
    expect(fallbackDecision("default", builtin("write_file"))).toBe("deny");
    expect(fallbackDecision("confirmWaves", builtin("edit_file"))).toBe("deny");
  });

  test("in no mode does it allow a call the gate would ask about or deny without rules", () => {
    const calls: ToolCall[] = [
      ...["get_issue", "create_pr", "create_issue", "delete_repo", undefined].map(github),
      ...["GET", "HEAD", "OPTIONS", "POST", "DELETE", undefined].map(http),
      ...Object.keys(DEFAULT_TOOL_TABLE).map((tool) => builtin(tool)),
      ...Object.keys(SPEECH_TOOL_ANNOTATIONS).map((tool) => speechToolCall(tool)),
      builtin("rm_rf"),
    ];
    const widened = MODE_NAMES.flatMap((mode) =>
      calls
        .filter((call) => fallbackDecision(mode, call) === "allow" && gateDecision(mode, call) !== "allow")
        .map((call) => `${mode} × ${toolRuleName(call)} ${JSON.stringify(call.args ?? null)}`),
    );
    expect(widened).toEqual([]);
  });

  test("in the read-only modes it allows the local reads alone", () => {
    for (const mode of ["plan", "dontAsk"] as const) {
      expect(fallbackDecision(mode, builtin("read_file"))).toBe("allow");
      expect(fallbackDecision(mode, builtin("web_search"))).toBe("deny");
      expect(fallbackDecision(mode, speechToolCall("transcribe_audio"))).toBe("deny");
      expect(fallbackDecision(mode, github("get_issue"))).toBe("deny");
      expect(fallbackDecision(mode, http("GET"))).toBe("deny");
      expect(fallbackDecision(mode, builtin("write_file"))).toBe("deny");
    }
  });
});
