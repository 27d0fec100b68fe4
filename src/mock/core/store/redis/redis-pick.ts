import type { CompiledStub, RequestView } from '../../scenarios/compile-stub.js';
import type { StubPick } from '../../scenarios/pick-stub.js';

/** Optional text as a script argument: '-' for none, '=' then the text (a state may be any string, the empty one too). */
export const optional = (text: string | undefined): string => (text === undefined ? '-' : `=${text}`);

/** A pick worked out in the process, or the script's arguments when it needs the state or call counts kept on Redis. */
export type PickPlan = { local: StubPick; args: string[] } | { args: string[]; mismatches: Array<string | undefined> };

/**
 * Matches the request against each stub here (matching reads only the
 * request), and decides whether Redis is needed at all: not when no stub
 * up to the first that matches has a requiredState or a calls filter and
 * that one has no newState, since nothing kept then changes the answer.
 * Plain scenarios so cost no round trip: the pick's count is still sent
 * (the same script), but the answer does not wait for it.
 */
export function planPick(stubs: readonly CompiledStub[], request: RequestView): PickPlan {
  const mismatches = stubs.map((stub) => stub.mismatch(request));
  let why = '';
  for (let i = 0; i < stubs.length; i++) {
    const stub = stubs[i] as CompiledStub;
    if (stub.requiredState !== undefined) return { args: pickArgs(stubs, mismatches), mismatches };
    const mismatch = mismatches[i];
    if (mismatch !== undefined) {
      why = withReason(why, stub, mismatch);
      continue;
    }
    if (stub.calls !== undefined || stub.newState !== undefined) return { args: pickArgs(stubs, mismatches), mismatches };
    return { local: { stub }, args: pickArgs(stubs, mismatches) };
  }
  return { local: { stub: undefined, why }, args: [] };
}

/** One more stub's phrase in `why`, joined as pickStub joins them. */
const withReason = (why: string, stub: CompiledStub, reason: string): string => (why === '' ? `${stub.label}: ${reason}` : `${why}; ${stub.label}: ${reason}`);

function pickArgs(stubs: readonly CompiledStub[], mismatches: Array<string | undefined>): string[] {
  const args = [String(stubs.length)];
  stubs.forEach((stub, i) => {
    const { every, first, after } = stub.calls ?? {};
    args.push(
      String(stub.index),
      optional(stub.requiredState),
      mismatches[i] === undefined ? '1' : '0',
      every === undefined ? '' : String(every),
      first === undefined ? '' : String(first),
      after === undefined ? '' : String(after),
      optional(stub.newState),
    );
  });
  return args;
}

/**
 * The StubPick from the pick script's reply {state, winner, counts…}: `why`
 * built exactly as pickStub builds it, one phrase per stub tried.
 */
export function pickFromReply(stubs: readonly CompiledStub[], mismatches: Array<string | undefined>, reply: Array<string | number>): StubPick {
  const state = String(reply[0]);
  const winner = Number(reply[1]);
  if (winner > 0) return { stub: stubs[winner - 1] as CompiledStub };
  let why = '';
  for (let i = 0; i < stubs.length; i++) {
    const stub = stubs[i] as CompiledStub;
    const mismatch = mismatches[i];
    let reason: string;
    if (stub.requiredState !== undefined && stub.requiredState !== state) reason = `requiredState ${stub.requiredState}, state is ${state}`;
    else if (mismatch !== undefined) reason = mismatch;
    else reason = stub.callMismatch(Number(reply[i + 2]));
    why = withReason(why, stub, reason);
  }
  return { stub: undefined, why };
}
