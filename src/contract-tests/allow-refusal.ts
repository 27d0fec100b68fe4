import { ORDINARY_NAME_LENGTH } from '../shared/profile/undeclared-limits.js';

/**
 * What a server may refuse of a valid NewPet, where the interface is silent,
 * and how a CI owner declares their service's own documented limits
 * (`--allow-refusal`, or `allowRefusal` in an environment of the config).
 *
 * The interface says "Rate limits, size limits on request bodies, and limits
 * on name length: not shown", and shows no fields of a category. Those are
 * the only open doors; everything else valid must be answered 201.
 */

/** The smallest body limit that can be declared: a NewPet with an ordinary name of any script fits. */
export const SMALLEST_BODY_BYTES = 1024;

/** The limits a service declares; each undefined/false field falls back to the undeclared default. */
export interface RefusalAllowance {
  /** `name.maxLength=N`: names longer than N code points may be refused. */
  nameMaxLength?: number;
  /** `body.maxBytes=N`: bodies longer than N bytes (UTF-8) may be refused. */
  bodyMaxBytes?: number;
  /** `categoryId.known`: only categories the service already holds are accepted. */
  categoryKnown: boolean;
}

export const NO_DECLARATION: RefusalAllowance = { categoryKnown: false };

export const ALLOW_REFUSAL_GRAMMAR = 'name.maxLength=N (N at least 100), body.maxBytes=N (N at least 1024), or categoryId.known';

export type AllowanceResult = { ok: true; value: RefusalAllowance } | { ok: false; error: string };

/**
 * Reads the declarations, each `name.maxLength=N`, `body.maxBytes=N` or
 * `categoryId.known` (also several in one value, comma-separated). A
 * declaration the grammar does not know, a number out of range or the same
 * limit declared twice with two values is a usage error: a typo must not
 * silently turn failures into passes, nor a declaration into nothing.
 */
export function parseAllowRefusals(texts: readonly string[]): AllowanceResult {
  const allowance: RefusalAllowance = { categoryKnown: false };
  for (const text of texts.flatMap((t) => t.split(',')).map((t) => t.trim()).filter(Boolean)) {
    if (text === 'categoryId.known') {
      allowance.categoryKnown = true;
      continue;
    }
    const match = /^(name\.maxLength|body\.maxBytes)=(\d{1,9})$/.exec(text);
    if (!match) return { ok: false, error: `--allow-refusal ${JSON.stringify(text)} is not a declaration the harness knows; use ${ALLOW_REFUSAL_GRAMMAR}` };
    const [, limit, digits] = match as unknown as [string, 'name.maxLength' | 'body.maxBytes', string];
    const value = Number(digits);
    const [field, floor, why] =
      limit === 'name.maxLength'
        ? (['nameMaxLength', ORDINARY_NAME_LENGTH, `names of up to ${ORDINARY_NAME_LENGTH} code points are ordinary and must be accepted`] as const)
        : (['bodyMaxBytes', SMALLEST_BODY_BYTES, `a NewPet with an ordinary name needs up to ${SMALLEST_BODY_BYTES} bytes`] as const);
    if (value < floor) return { ok: false, error: `--allow-refusal ${text}: ${limit} must be at least ${floor} (${why})` };
    if (allowance[field] !== undefined && allowance[field] !== value) return { ok: false, error: `--allow-refusal declares ${limit} twice (${allowance[field]} and ${value})` };
    allowance[field] = value;
  }
  return { ok: true, value: allowance };
}

/** The declarations in words, for the report and the refusals it passes. */
export function describeAllowance(allowance: RefusalAllowance): string[] {
  return [
    ...(allowance.nameMaxLength === undefined ? [] : [`name.maxLength=${allowance.nameMaxLength}`]),
    ...(allowance.bodyMaxBytes === undefined ? [] : [`body.maxBytes=${allowance.bodyMaxBytes}`]),
    ...(allowance.categoryKnown ? ['categoryId.known'] : []),
  ];
}
