/** Most unknown argument names one refusal names (with the nearest known one each); the rest are counted. */
export const MAX_LISTED_UNKNOWN_ARGUMENTS = 3;

/** Most other schema issues one refusal lists, as `path: message`; the rest are counted. */
export const MAX_LISTED_ARGUMENT_ISSUES = 3;

/** Longest argument name compared for the nearest known one, so a hostile name cannot make the comparison costly. */
export const MAX_COMPARED_NAME_CHARS = 64;

/** Longest argument name a refusal quotes (escaped, so an invisible character shows), ellipsis included. */
export const MAX_QUOTED_NAME_CHARS = 64;

/** How many characters of an offending value a refusal quotes before saying how long it was. */
export const SHOWN_VALUE_CHARS = 60;
