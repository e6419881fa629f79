/** The gate's rules: allow and deny, by tool rule name (see `toolRuleName`). There is no rule that asks. */
export interface PermissionRules {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/** No rule at all. */
export const NO_RULES: PermissionRules = Object.freeze({ allow: Object.freeze([]), deny: Object.freeze([]) });
