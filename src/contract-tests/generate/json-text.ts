/**
 * JSON text with number literals JavaScript cannot hold (2^63, past int64):
 * a RawNumber is written as its digits, so a server receives exactly the
 * literal the case names rather than JavaScript's rounding of it.
 */
export class RawNumber {
  constructor(readonly literal: string) {}
  toJSON(): string {
    return `\u0000raw:${this.literal}\u0000`;
  }
}

const RAW = /"\\u0000raw:([^"\\]+)\\u0000"/g;

/** JSON text of `value`: a RawNumber as its literal, a bigint (an int64 past 2^53) as its exact digits. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? new RawNumber(String(item)).toJSON() : item)).replace(RAW, '$1');
}
