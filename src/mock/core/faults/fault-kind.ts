/** A JSON Schema (draft-07) fragment, as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * How a scenario file writes a fault kind in `then`: as its bare name
 * (`then: reset`), or as a mapping keyed by its name (`then: {trickle: …}`)
 * whose properties, the name's own and any companions, are given here.
 */
export type FaultForm =
  | { readonly form: 'word' }
  | {
      readonly form: 'mapping';
      readonly properties: Readonly<Record<string, JsonSchema>>;
      /** Companion properties allowed only beside another (draft-07 `dependencies`). */
      readonly dependencies?: Readonly<Record<string, readonly string[]>>;
    };

/**
 * One kind of fault a stub's `then` can name: what the core knows of it
 * (its name, how it is written, how docs/scenarios-and-faults.md describes it). What it does
 * to a request is the HTTP layer's (src/mock/http/faults/fault-behaviours.ts).
 */
export interface FaultKind<Name extends string = string, Written = unknown> {
  readonly name: Name;
  readonly schema: FaultForm;
  /** Its row in the Faults table of docs/scenarios-and-faults.md: how it is written, and what the client gets. */
  readonly guideRow: { readonly written: string; readonly gets: string };
  /**
   * Never set: it carries the type of the kind's `then` value, so the union
   * of what `then` may hold is derived from the list of kinds.
   */
  readonly written?: Written;
}
