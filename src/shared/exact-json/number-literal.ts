import { exactInteger, int64StandIn } from './int64.js';

/**
 * A JSON number literal read exactly: `value` is what it means (a safe
 * number, a bigint for an integer past 2^53, else JavaScript's double) and
 * `view` what a schema validator is shown (see int64StandIn). A literal
 * that is not an integer but whose double is one (4503599627370497.5 is the
 * double 4503599627370498) is shown as NaN, which no `type: integer` takes.
 */
export interface ReadNumber {
  value: number | bigint;
  view: number;
}

// RFC 8259 §6's number grammar, in parts.
const LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/;

/** Integers longer than this are far outside int64 whatever their digits: they stay doubles, so `1e999999` costs no million-digit bigint. */
const MAX_DIGITS = 40;

// Up to 15 digits and no fraction or exponent: a double holds it exactly. Most literals are these, and they cost no more than Number().
const SHORT_INTEGER = /^-?\d{1,15}$/;

export function readNumberLiteral(text: string): ReadNumber {
  const double = Number(text);
  if (SHORT_INTEGER.test(text)) return { value: double, view: double };
  const parts = LITERAL.exec(text);
  if (!parts) return { value: double, view: double };
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = parts;
  const significant = (whole + fraction).replace(/^0+/, '');
  if (significant === '') return { value: double, view: double };
  const digits = significant.replace(/0+$/, '');
  const power = Number(exponent) - fraction.length + (significant.length - digits.length);
  if (power < 0) return { value: double, view: Number.isInteger(double) ? Number.NaN : double };
  if (digits.length + power > MAX_DIGITS) return { value: double, view: double };
  const value = exactInteger(BigInt(sign + digits + '0'.repeat(power)));
  return { value, view: typeof value === 'number' ? value : int64StandIn(value) };
}
