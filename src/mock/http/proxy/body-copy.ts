/**
 * A capped copy of a body as it streams past, for the checks once the
 * exchange ends. Past `cap` bytes it keeps nothing more and says so: the
 * body is passed on whole, but unchecked (a body is never held whole for
 * the check's sake).
 */
export interface BodyCopy {
  add(chunk: Buffer): void;
  /** The bytes kept, or undefined when the body passed the cap. */
  bytes(): Buffer | undefined;
  /** The first `max` bytes seen, whether or not the cap was passed (the journal's excerpt). */
  start(max: number): Buffer;
  readonly total: number;
}

export function bodyCopy(cap: number): BodyCopy {
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  let over = false;
  return {
    add(chunk) {
      total += chunk.length;
      if (over) return;
      if (kept + chunk.length > cap) {
        // The start stays for the journal's excerpt (a copy: the chunk's buffer is let go); the rest is not kept.
        over = true;
        chunks.push(Buffer.from(chunk.subarray(0, cap - kept)));
        kept = cap;
        return;
      }
      chunks.push(chunk);
      kept += chunk.length;
    },
    bytes: () => (over ? undefined : Buffer.concat(chunks, kept)),
    start(max) {
      const all = Buffer.concat(chunks, kept);
      return all.subarray(0, Math.min(max, all.length));
    },
    get total() {
      return total;
    },
  };
}
