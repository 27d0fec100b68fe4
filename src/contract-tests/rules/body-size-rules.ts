import { CREATED_NAME_PREFIX } from '../catalogue-fill.js';
import { UNDECLARED_BODY_BYTES } from '../../shared/profile/undeclared-limits.js';
import { answerOf, errorCodeOf } from '../silent-log.js';
import type { Probe, Rule } from '../types.js';
import { ACCEPTANCE } from './acceptance-statements.js';
import { createdAsSent } from './created-as-sent.js';
import { JSON_BODY } from './expect.js';
import { finding, sweep } from './generated.js';
import { cite } from './statements.js';
import { bodySizeNote } from '../../shared/profile/learn/noted-answers.js';

/** The most the search sends: 1 MiB and a byte, one past the most the mock reads. */
const LARGEST = 1024 * 1024 + 1;

interface Search {
  /** The largest size accepted so far (the harness's line, 8 KiB, is taken as accepted: other rules judge below it). */
  accepted: number;
  /** A probe was accepted: without one, the search shows no limit, only refusals. */
  acceptedAny?: true;
  /** The smallest size refused so far, and the answer it got. */
  refused: number;
  refusedBy?: Probe;
  /** A size past 1 MiB was accepted: no limit the search can find. */
  unlimited?: true;
  stopped?: true;
}

type SizeCase = { label: string; bytes: number; pet: Record<string, unknown> };

/**
 * The sizes to send, one at a time, each chosen from the answers so far:
 * 1 MiB first (most targets take it, and then only 1 MiB and a byte is
 * left to ask), then halving the gap between the largest accepted and the
 * smallest refused, down to one byte. At most 20 requests.
 */
function* sizes(search: Search, seed: number): Generator<SizeCase> {
  const at = (bytes: number): SizeCase => ({ label: `a NewPet of ${bytes} bytes (spaces after its members)`, bytes, pet: { name: `${CREATED_NAME_PREFIX} size ${seed} ${bytes}`, categoryId: 1, status: 'sold' } });
  for (const first of [LARGEST - 1, LARGEST]) {
    if (search.stopped || search.refusedBy) break;
    yield at(first);
  }
  if (!search.refusedBy && !search.stopped) search.unlimited = true;
  while (!search.stopped && !search.unlimited && search.refused - search.accepted > 1) yield at(Math.floor((search.accepted + search.refused) / 2));
}

/** The NewPet as JSON text of exactly `bytes` bytes: whitespace (RFC 8259 §2) before its closing brace. */
const padded = (pet: Record<string, unknown>, bytes: number): string => {
  const text = JSON.stringify(pet);
  return `${text.slice(0, -1)}${' '.repeat(bytes - Buffer.byteLength(text))}}`;
};

export const bodySizeRules: Rule[] = [
  {
    id: 'create-body-size-limit',
    title: 'createPet with valid bodies from 8 KiB to 1 MiB and a byte: the largest accepted is found; each gets 201 with the animal, or 400 or 413 with an Error body past a limit',
    operation: 'createPet',
    writes: true,
    severity: 'contract',
    statement: ACCEPTANCE.bodySize,
    async run(context) {
      const search: Search = { accepted: UNDECLARED_BODY_BYTES, refused: LARGEST + 1 };
      const outcome = await sweep(
        context,
        sizes(search, context.seed),
        (c) => context.probe({ method: 'POST', path: '/pets', headers: JSON_BODY, body: padded(c.pet, c.bytes), case: `${c.bytes} bytes` }),
        (c, probe) => {
          const status = probe.exchange.response?.status;
          if (status === 201) {
            Object.assign(search, { accepted: Math.max(search.accepted, c.bytes), acceptedAny: true });
            return createdAsSent(probe, c.pet, ACCEPTANCE.bodySize.text);
          }
          if ((status === 400 || status === 413) && errorCodeOf(probe.exchange) !== undefined) {
            // Refused below a size accepted before: something else than the size (a name taken by an earlier run): no limit to learn.
            if (c.bytes <= search.accepted && search.acceptedAny) search.stopped = true;
            else if (c.bytes < search.refused) Object.assign(search, { refused: c.bytes, refusedBy: probe });
            return [];
          }
          search.stopped = true;
          return [finding(probe.exchange, `answered ${answerOf(probe.exchange)} to ${c.label}`, `201 with the animal, or 400 or 413 with an Error body (${cite(ACCEPTANCE.bodySize)})`, '$.status')];
        },
      );
      if (search.unlimited) context.observe('body-size', bodySizeNote.sayUnlimited(LARGEST), `${LARGEST} bytes`);
      else if (search.refusedBy && search.acceptedAny && !search.stopped) context.observe('body-size', bodySizeNote.sayRefused(search.accepted, search.refused, answerOf(search.refusedBy.exchange)), search.refusedBy.exchange);
      return outcome;
    },
  },
];
