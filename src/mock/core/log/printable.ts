// C0 controls, DEL, C1 controls and the two Unicode line separators: what a terminal or a log reader may act on.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A client's text (a request path, which Hono has percent-decoded) as a
 * log line may show it: control characters written as `\xNN` or `\uNNNN`,
 * so `%0d%0a` in a path cannot start a forged line in the readable log,
 * nor an escape sequence recolour a terminal.
 */
export const printable = (text: string): string =>
  text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
