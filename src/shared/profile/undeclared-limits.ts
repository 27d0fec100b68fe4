/**
 * Without a declaration, a name longer than this may be refused. Up to it, a
 * limit is a real restriction of what clients may send, so it must be
 * declared to pass the contract harness (`--allow-refusal`); past it a name
 * is no longer a name but a payload. A profile's name limit is never lower:
 * the mock keeps to the same line.
 */
export const UNDECLARED_NAME_LENGTH = 1000;

/**
 * Without a declaration, a body larger than this may be refused (400, or 413
 * as RFC 9110 §15.5.14 allows). Every body the harness sends with a name of
 * undeclared length stays below it (1000 code points, each at most 6 bytes
 * once escaped, and the other members). A profile's body limit is never lower.
 */
export const UNDECLARED_BODY_BYTES = 8192;

/** The most the mock reads of a request body (1 MiB): a profile's body or name limit cannot go past it. */
export const MOCK_BODY_BYTES = 1_048_576;
