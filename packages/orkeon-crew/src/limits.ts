/** The mask every token is replaced with in the results and log lines this package produces. */
export const TOKEN_MASK = "***";

/** Longest text {@link parseChainRefusal} reads; the refusal is one short line, so a longer text is not one. */
export const MAX_CHAIN_REFUSAL_LENGTH = 512;

/** Longest command name a chain refusal may carry (without its slash). */
export const MAX_COMMAND_NAME_LENGTH = 64;

/** Most stop-check retries the main loop makes after a finished answer before it keeps the answer it has. */
export const DEFAULT_MAX_STOP_CHECK_RETRIES = 2;

/** Most batches a /dev-batches plan may hold; a longer plan is refused as a malformed hop input. */
export const DEFAULT_MAX_PLAN_BATCHES = 10_000;

/** How long a writing hop waits for the session read before it goes on with the record's context. */
export const DEFAULT_SESSION_READ_TIMEOUT_MS = 5_000;

/** Longest run id a hop input may carry. */
export const MAX_RUN_ID_LENGTH = 256;

/** Most allow or deny rules a session context read may answer. */
export const MAX_SESSION_RULES = 1_000;

/** Longest single permission rule a session context read may answer. */
export const MAX_RULE_LENGTH = 1_024;

/** Most tool names a session read may list. */
export const MAX_SESSION_TOOLS = 1_000;

/** Longest tool name a session read may list. */
export const MAX_TOOL_NAME_LENGTH = 256;

/** Longest mode name a session context read may answer. */
export const MAX_MODE_NAME_LENGTH = 64;

/** How much of a failure's message a printed line or notice quotes, counted after masking. */
export const MAX_QUOTED_REASON_LENGTH = 200;

/** Longest string an error message quotes whole; a longer one is described by its length, never cut. */
export const MAX_QUOTED_VALUE_LENGTH = 40;

/** The variable the github tool reads when `Orkeon:Tools:GitHub:TokenVariable` names none. */
export const DEFAULT_GITHUB_TOKEN_VARIABLE = "GITHUB_TOKEN";

/** The variable the github tool reads last. */
export const GH_TOKEN_VARIABLE = "GH_TOKEN";

/** Settings key holding a token directly (the variable is recommended instead). */
export const GITHUB_TOKEN_SETTING = "Orkeon:Tools:GitHub:Token";

/** Settings key naming the variable that holds the token. */
export const GITHUB_TOKEN_VARIABLE_SETTING = "Orkeon:Tools:GitHub:TokenVariable";

/** Depth limit of {@link FakeOrkeonRuntime} when none is given (the runtime's own default is configured by the operator). */
export const DEFAULT_FAKE_MAX_CHAIN_DEPTH = 3;

/** Most crew instances one typed command may start in {@link FakeOrkeonRuntime}, so a runaway chain fails a test. */
export const DEFAULT_FAKE_MAX_LAUNCHES = 1_000;
