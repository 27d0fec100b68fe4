/**
 * Names of up to this many code points (JSON Schema's way of counting a
 * string's length) are ordinary: every service must accept them, and no
 * declaration can excuse refusing one. A lower limit would refuse real names
 * (several given names and family names; scripts where one letter is several
 * code points), and the interface states no limit at all.
 */
export const ORDINARY_NAME_LENGTH = 100;

/**
 * Without a declaration, a name longer than this may be refused. Up to it, a
 * limit is a real restriction of what clients may send, so it must be
 * declared to pass the contract harness (`--allow-refusal`); past it a name
 * is no longer a name but a payload. A profile may hold a lower limit, learned
 * from a server that has one: the mock then copies that server, line and all.
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
