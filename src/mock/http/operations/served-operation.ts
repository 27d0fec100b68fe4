import { andThen, type MaybePromise } from '../../core/store/maybe-promise.js';
import type { Faker } from '@faker-js/faker';
import type { Log } from '../../core/log/log.js';
import type { OperationSpec } from '../../../document/operations.js';
import type { ActiveProfile } from '../../core/profile/active-profile.js';
import type { Result } from '../../core/result.js';
import type { Answer, Exchange, Next } from '../exchange.js';
import { sendError } from '../respond.js';

/**
 * A documented operation as the mock serves it, one file each
 * (list-pets.ts, create-pet.ts, get-pet.ts). `read` is the one place the
 * request is read, so the stored answer (`serve`) and the generated one
 * (`Prefer: dynamic=true`, `generate`) can never disagree on what the
 * request asked: a new parameter is read there and honoured by both.
 */
export interface ServedOperation<Input> {
  /** The request as the document reads it, or the Error it gets. */
  read(x: Exchange): MaybePromise<Result<Input>>;
  /** The answer from the catalogue of the request's scenario: at once from memory, later from Redis. */
  serve(x: Exchange, input: Input): Answer;
  /** `Prefer: dynamic=true`: a made-up success body that honours the input; nothing is stored. */
  generate(faker: Faker, input: Input): unknown;
}

/** What an operation has besides its part of the document: the mock's log, for what a client cannot be told alone (a full catalogue), and where the API is served. */
export interface OperationContext {
  logger: Log;
  /** The document's base path (`/v1`): the operation's own path is below it. */
  basePath: string;
  /** The choices where the interface is silent (`--profile`; the mock's own by default), read at each request. */
  profile: ActiveProfile;
}

/** Makes an operation's `ServedOperation` from its part of the document, so its rules are the document's, not a copy. */
export type OperationFactory<Input = unknown> = (operation: OperationSpec, context: OperationContext) => ServedOperation<Input>;

/** The last step of an operation's route: read the request, then serve it. */
export function serveOperation<Input>(served: ServedOperation<Input>): Next {
  const answer = (x: Exchange, input: Result<Input>): Answer => (input.ok ? served.serve(x, input.value) : sendError(x, input.error));
  return function serveRequest(x): Answer {
    return andThen(served.read(x), (input) => answer(x, input));
  };
}
