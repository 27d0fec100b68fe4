import type { Answers, Learned } from './learn/learned.js';

/** A JSON Schema, as profiles/profile.schema.json holds it. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * One point where the interface is silent that a profile sets: everything
 * about it but the mock's behaviour and the harness's probe, which read and
 * write it by its key. profiles/profile.schema.json, profiles/default.yaml
 * and the table of docs/reference.md are written from these
 * (`npm run profile-files`), and tests fail when they disagree.
 */
export interface ProfilePointSpec<Key extends string = string, Choice = unknown, Noted extends 'fixed' | 'query-parameter' = 'fixed' | 'query-parameter'> {
  /** The profile's key, and the silent log's point. */
  readonly key: Key;
  /** What is asked: the silent log's question, the table's, and the schema's description. */
  readonly question: string;
  /** What the harness learns it from: its rule's notes and how they read, for the table of docs/harness-drift.md. */
  readonly learnedFrom: string;
  /** What the schema's description adds to the question: the forms a choice takes, its bounds. */
  readonly about?: string;
  /** The choice's JSON Schema (without its description). */
  readonly schema: JsonSchema;
  /** The mock's own choice: what it serves without a profile. */
  readonly own: Choice;
  /** A choice other than the mock's own, for the schema's `examples`. */
  readonly example: Choice;
  /** The choice in words, for the documentation's table. */
  readonly inWords: (choice: Choice) => string;
  /** The choice, from the answers the harness noted at the point; or why none can be served. */
  readonly learn: (answers: Answers) => Learned<Choice>;
  /** Where the harness notes it: at the point's key, or as the refused values of listPets' query parameter of that name. */
  readonly noted: Noted;
}

/** A point, its types inferred from the entry. */
export const profilePoint = <const Key extends string, Choice, const Noted extends 'fixed' | 'query-parameter' = 'fixed'>(
  spec: ProfilePointSpec<Key, Choice, Noted>,
): ProfilePointSpec<Key, Choice, Noted> => spec;
