/** The header a fallback answer carries (forward.ts): the mock answered, and why (the code the client would have got). */
export const FALLBACK_HEADER = 'X-Mock-Fallback';
