import type { IncomingMessage } from 'node:http';
import type { PetIdSyntax } from './reference-get-pet.js';

/** Which set of choices the reference server makes (see reference-server.ts's header comment). */
export type ReferenceVariant = 'default' | 'every-point';

/** The choices that differ between the variants. */
export interface VariantChoices {
  /** The WWW-Authenticate value of every 401, a missing key or a wrong one. */
  challenge: string;
  /** Whether createPet's 201 carries `Location: /v1/pets/{id}`. */
  location: boolean;
  /** A query parameter the document does not name. */
  unknownParameters: 'ignored' | 'refused';
  petId: PetIdSyntax;
  /** A createPet body sent with `Transfer-Encoding: chunked`. */
  chunkedBodies: 'read' | 'refused';
  /** A createPet name with a control character. */
  controlCharacters: 'kept' | 'refused';
  /** A createPet name an animal of the server already has. */
  takenNames: 'allowed' | 'refused';
  /** A NewPet member other than name, categoryId and status (a client `id` among them). */
  extraMembers: 'ignored' | 'refused';
  /** A NewPet member named twice with two values: the last read, or the body refused. */
  duplicateMembers: 'last' | 'refused';
  /** The 401 code of a key that is there but not accepted (an empty header is as none): one code for both, or its own. */
  wrongKeyCode: 'unauthenticated' | 'invalid_credentials';
  /** getPet's deprecation signals: on every answer with a Link to the replacement, or on a 200 alone without one. */
  deprecation: 'every-answer' | 'success-without-link';
  /** A request whose Accept does not accept application/json: answered in JSON all the same, or 406. */
  accept: 'ignored' | 'refused';
  /** listPets' `limit` or `status` given more than once: refused with that parameter's Error, or read as its last value. */
  repeatedParameters: 'refused' | 'last';
}

export const VARIANTS: Record<ReferenceVariant, VariantChoices> = {
  default: {
    challenge: 'Bearer',
    location: true,
    unknownParameters: 'ignored',
    petId: 'plain',
    chunkedBodies: 'read',
    controlCharacters: 'kept',
    takenNames: 'allowed',
    extraMembers: 'ignored',
    duplicateMembers: 'last',
    wrongKeyCode: 'unauthenticated',
    deprecation: 'every-answer',
    accept: 'ignored',
    repeatedParameters: 'refused',
  },
  'every-point': {
    challenge: 'Bearer scope="pets"',
    location: false,
    unknownParameters: 'refused',
    petId: 'lenient-sign-strict-zeros',
    chunkedBodies: 'refused',
    controlCharacters: 'refused',
    takenNames: 'refused',
    extraMembers: 'refused',
    duplicateMembers: 'refused',
    wrongKeyCode: 'invalid_credentials',
    deprecation: 'success-without-link',
    accept: 'refused',
    repeatedParameters: 'last',
  },
};

/** The first query parameter (its name as decoded) not among `named`, else undefined. */
export function unknownParameter(query: URLSearchParams, named: readonly string[]): string | undefined {
  for (const name of query.keys()) if (!named.includes(name)) return name;
  return undefined;
}

/**
 * Whether an Accept field accepts application/json (RFC 9110 §12.5.1): of
 * the ranges that match it, the most specific (`application/json` over
 * `application/*` over any type) decides by its weight; none matching, it is
 * not accepted. No field, or one that lists nothing, accepts any type.
 */
export function acceptsJson(accept: string | undefined): boolean {
  const ranges = (accept ?? '').split(',').map((item) => item.split(';').map((part) => part.trim().toLowerCase())).filter(([range]) => range !== '');
  if (ranges.length === 0) return true;
  const rank = (range: string | undefined) => ['*/*', 'application/*', 'application/json'].indexOf(range ?? '');
  const matching = ranges.filter(([range]) => rank(range) >= 0);
  const most = Math.max(-1, ...matching.map(([range]) => rank(range)));
  const weight = (params: string[]) => Number(params.find((p) => /^q\s*=/.test(p))?.replace(/^q\s*=\s*/, '') ?? '1');
  return matching.some(([range, ...params]) => rank(range) === most && !(weight(params) <= 0));
}

/** A body framed by chunked transfer coding rather than a Content-Length (node refuses a request with both). */
export function isChunked(req: IncomingMessage): boolean {
  return /chunked/i.test(req.headers['transfer-encoding'] ?? '') && req.headers['content-length'] === undefined;
}
