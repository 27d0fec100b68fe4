import { alreadySent } from '../../src/mock/http/already-sent.js';
import type { Defect } from './defect.js';
import { afterMock, beforeMock, errorResponse, mapJson, operationOf, respond, rewriteRequest } from './http.js';

const isGetPet = (status: (status: number) => boolean) => (operation: string | undefined, response: Response) =>
  operation === 'getPet' && status(response.status);

export const getDefects: Defect[] = [
  {
    name: 'getPet returns the next animal (id + 1)',
    breaks: 'Endpoints > Get an animal: petId is the identifier of the animal to retrieve; 200, Pet, when the animal exists.',
    wrap: beforeMock((request) => {
      const url = new URL(request.url);
      const match = /^(.*\/pets\/)(\d+)$/.exec(url.pathname);
      if (operationOf(request) !== 'getPet' || !match) return request;
      url.pathname = `${match[1]}${BigInt(match[2] as string) + 1n}`;
      return rewriteRequest(request, { url: url.href });
    }),
    caughtBy: ['get-known-id', 'create-readable-via-get-pet'],
  },
  {
    name: 'getPet answers 200 with {} for an unknown id',
    breaks: 'Endpoints > Get an animal: 404, Error, when the requested resource could not be found.',
    wrap: afterMock(isGetPet((s) => s === 404), (response) => respond(response, '{}', { status: 200 })),
    caughtBy: ['get-unknown-id'],
  },
  {
    name: 'getPet answers 400 for an unknown id',
    breaks: 'Endpoints > Get an animal: 404, Error, when the requested resource could not be found.',
    wrap: afterMock(isGetPet((s) => s === 404), () => errorResponse(400, 'invalid_parameter', 'no such animal')),
    caughtBy: ['get-unknown-id'],
  },
  {
    name: 'getPet removed before its date (410)',
    breaks: 'Versioning: GET /pets/{petId} will be removed on 5 December 2030. Until then it is still served as described.',
    wrap: afterMock(isGetPet((s) => s !== 401), () => errorResponse(410, 'gone', 'getPet has been removed: use GET /pets?status=')),
    caughtBy: ['get-known-id', 'get-unknown-id'],
  },
  {
    name: 'getPet 200 labelled charset=iso-8859-1',
    breaks: 'What the service does: requests and responses use the media type application/json (RFC 8259 §8.1: JSON text is UTF-8; a charset other than utf-8 labels it as something else).',
    wrap: afterMock(isGetPet((s) => s === 200), async (response) => respond(response, await response.text(), { headers: { 'content-type': 'application/json; charset=iso-8859-1' } })),
    caughtBy: ['get-known-id'],
  },
  {
    name: 'getPet 200 with a second Content-Type line (text/html)',
    breaks: 'What the service does: requests and responses use the media type application/json (RFC 9110 §8.3: Content-Type is a singleton field; a client sent two cannot tell which applies).',
    wrap: (fetch) => async (request, env) => {
      const response = await fetch(request, env);
      if (operationOf(request) !== 'getPet' || response.status !== 200) return response;
      const body = Buffer.from(await response.arrayBuffer());
      const fields: string[] = [];
      response.headers.forEach((value, name) => {
        if (name !== 'content-length') fields.push(name, value);
      });
      // As a CDN that labels what passes through adds its own: a Response holds one Content-Type, node writes each line it is given.
      fields.push('Content-Type', 'text/html; charset=utf-8', 'Content-Length', String(body.length));
      env.outgoing.writeHead(200, fields).end(body);
      return alreadySent(200);
    },
    caughtBy: ['get-known-id'],
  },
  {
    name: 'getPet 200 with a Last-Modified written by Date.toString()',
    breaks: 'What the service does: an HTTP/JSON service (RFC 9110 §5.6.7: a sender MUST generate HTTP-date timestamps, Last-Modified included, in the IMF-fixdate format).',
    // As a handler that sets the header from a Date object without toUTCString(): "Sun Nov 29 2026 11:54:13 GMT+0000 (Coordinated Universal Time)".
    wrap: afterMock(isGetPet((s) => s === 200), async (response) => respond(response, await response.text(), { headers: { 'last-modified': new Date(Date.UTC(2026, 0, 5)).toString() } })),
    caughtBy: ['get-known-id'],
  },
  {
    name: 'getPet 200 with an unquoted ETag',
    breaks: 'What the service does: an HTTP/JSON service (RFC 9110 §8.8.3: an ETag is one entity-tag, its opaque tag in double quotes).',
    // As a handler that sets the header to a content hash as it is: a client sending it back in If-None-Match sends no entity-tag.
    wrap: afterMock(isGetPet((s) => s === 200), async (response) => respond(response, await response.text(), { headers: { etag: '5d41402abc4b2a76' } })),
    caughtBy: ['get-known-id'],
  },
  {
    name: 'getPet answers the Pet inside an array',
    breaks: 'Endpoints > Get an animal: 200, Pet (one object).',
    wrap: afterMock(isGetPet((s) => s === 200), mapJson((pet) => [pet])),
    caughtBy: ['get-known-id'],
  },
];
