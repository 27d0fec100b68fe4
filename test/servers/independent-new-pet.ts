/**
 * createPet's body for the independent Animal Store server: reading it within
 * the size limit, and turning it into a NewPet or the Error that refuses it.
 * The choices themselves are listed in independent-server.ts.
 */
import type { IncomingMessage } from 'node:http';
import { int64OfNumber, JsonNumber, JsonSyntaxError, parseJson, type Json } from './independent-json.js';

export const MAX_BODY_BYTES = 16_384;
export const MAX_NAME_CODE_POINTS = 64;
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

export interface NewPet {
  name: string;
  categoryId: bigint;
  status: PetStatus;
}

/** A refusal: the HTTP status, the Error's code and message. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
}

const refuse = (status: number, code: string, message: string): Refusal => ({ status, code, message });
const tooLarge = (): Refusal => refuse(413, 'body_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);

/** A declared Content-Length past the limit is refused before a byte of the body is read. */
export function declaredTooLarge(req: IncomingMessage): Refusal | undefined {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > MAX_BODY_BYTES ? tooLarge() : undefined;
}

/**
 * Reads the body, chunked or not. Past the limit it stops keeping bytes and
 * settles at once with the 413; what the client still sends is then
 * discarded while the connection closes (see lingerOnClose).
 */
export function readBody(req: IncomingMessage): Promise<Buffer | Refusal> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        stop();
        req.resume();
        resolve(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    // 'close' before 'end': the client went away mid-body; nobody is left to answer.
    const onClose = (): void => {
      stop();
      reject(new Error('the request was aborted'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}

/** `application/json`, any case, with or without parameters (`; charset=utf-8`). */
function isJson(contentType: string | undefined): boolean {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  return essence === 'application/json';
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// C0 and DEL only: C1 (U+0080–U+009F) is printable text in a few legacy encodings, and names come from everywhere.
const CONTROL = /[\u0000-\u001F\u007F]/;

/**
 * The NewPet in a body, or the first thing wrong with it, checked in this
 * order: empty, media type, JSON, object, required fields, field types, then
 * the rules on names (which need the catalogue: `nameTaken`).
 */
export function readNewPet(body: Buffer, contentType: string | undefined, nameTaken: (name: string) => boolean): NewPet | Refusal {
  if (body.length === 0) return refuse(400, 'body_required', 'createPet needs a NewPet body.');
  if (!isJson(contentType)) return refuse(400, 'unsupported_media_type', `The body must be sent as application/json, not ${contentType ?? 'without a Content-Type'}.`);
  let json: Json;
  try {
    json = parseJson(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body));
  } catch (error) {
    const why = error instanceof JsonSyntaxError ? error.message : 'the body is not UTF-8';
    return refuse(400, 'json_invalid', `The body is not valid JSON: ${why}.`);
  }
  if (!(json instanceof Map)) return refuse(400, 'body_not_object', 'The body must be a JSON object (a NewPet).');

  for (const field of ['name', 'categoryId']) {
    if (!json.has(field)) return refuse(400, 'field_missing', `${field} is required.`);
  }
  const name = json.get('name');
  if (typeof name !== 'string' || LONE_SURROGATE.test(name)) return refuse(400, 'field_invalid', 'name must be a string of Unicode text.');
  const categoryId = json.get('categoryId');
  const category = categoryId instanceof JsonNumber ? int64OfNumber(categoryId.text) : 'not-integer';
  if (typeof category !== 'bigint') return refuse(400, 'field_invalid', 'categoryId must be an integer in the int64 range.');
  const status = json.has('status') ? json.get('status') : 'available';
  if (!PET_STATUSES.includes(status as PetStatus)) return refuse(400, 'field_invalid', `status must be one of ${PET_STATUSES.join(', ')}.`);
  // Any other member (`id` included) is ignored: NewPet does not forbid additional properties.

  if (name === '') return refuse(400, 'name_empty', 'name must not be empty.');
  if ([...name].length > MAX_NAME_CODE_POINTS) return refuse(400, 'name_too_long', `name is longer than ${MAX_NAME_CODE_POINTS} characters.`);
  if (CONTROL.test(name)) return refuse(400, 'name_invalid', 'name must not contain control characters.');
  if (nameTaken(name)) return refuse(400, 'name_taken', 'Another animal already has this name.');
  return { name, categoryId: category, status: status as PetStatus };
}
