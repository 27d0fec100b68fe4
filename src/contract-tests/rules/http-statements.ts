import type { Statement } from '../../verdict/report.js';

/**
 * What HTTP itself defines for every resource, which the interface does not
 * restate: the RFCs' statements the HTTP rules check, quoted, each named by
 * its section (statements.ts holds the interface's).
 */
export const HTTP_STATEMENTS = {
  methodNotAllowed: {
    section: 'RFC 9110 §9.1, §15.5.6 (methods the document does not list)',
    text: 'An origin server that receives a request method that is unrecognized or not implemented SHOULD respond with the 501 (Not Implemented) status code. An origin server that receives a request method that is recognized and implemented, but not allowed for the target resource, SHOULD respond with the 405 (Method Not Allowed) status code. The origin server MUST generate an Allow header field in a 405 response containing a list of the target resource\'s currently supported methods. (The interface: any other operations, update or delete of an animal for example: not shown; no request changes an animal but createPet, which adds one.)',
  },
  head: {
    section: 'RFC 9110 §9.1, §9.3.2 (HEAD)',
    text: 'All general-purpose servers MUST support the methods GET and HEAD. The HEAD method is identical to GET except that the server MUST NOT send content in the response.',
  },
  headFields: {
    section: 'RFC 9110 §9.3.2 (HEAD)',
    text: 'The server SHOULD send the same header fields in response to a HEAD request as it would have sent if the request method had been GET. However, a server MAY omit header fields for which a value is determined only while generating the content.',
  },
  preflight: {
    section: 'Fetch standard, CORS protocol (CORS-preflight fetch); the interface says nothing of browsers',
    text: 'A CORS-preflight request uses OPTIONS as method and includes Access-Control-Request-Method and Access-Control-Request-Headers, and never credentials; its answer must be an ok status (200–299) whose Access-Control-Allow-Methods holds the method unless it is CORS-safelisted (GET, HEAD, POST) and whose Access-Control-Allow-Headers names each header (Authorization only by name: a * does not cover it).',
  },
  preflightWithoutData: {
    section: 'Authentication; Fetch standard, CORS protocol (a CORS-preflight request never carries credentials)',
    text: 'The requirement applies to every operation. When the key is missing or invalid, the service answers 401 with an Error body. (A CORS preflight, OPTIONS with Origin and Access-Control-Request-Method, is no operation and a browser never sends the key on one: it may be answered without the key, with a 204 or CORS fields, but never with an operation\'s data.)',
  },
  sharedCache: {
    section: 'RFC 9111 §3.5 (storing responses to authenticated requests); Authentication: the requirement applies to every operation',
    text: 'A shared cache MUST NOT use a cached response to a request with an Authorization header field to satisfy any subsequent request unless the response contains a Cache-Control field with a response directive that allows it to be stored by a shared cache: must-revalidate, public, and s-maxage. (Such an answer without Vary: Authorization is served by a shared cache to a request without the key.)',
  },
  keylessAfterKeyed: {
    section: 'Authentication; RFC 9111 §3.5',
    text: 'The requirement applies to every operation. When the key is missing or invalid, the service answers 401 with an Error body, also when the same request with the key was answered a moment before (whatever cache stands in front of the service).',
  },
  vary: {
    section: 'RFC 9110 §12.5.5 (Vary)',
    text: 'An origin server SHOULD send a Vary header field when its algorithm for selecting a representation varies based on aspects of the request message other than the method and target URI.',
  },
  preconditionsIgnored: {
    section: 'RFC 9110 §13.2.1 (when preconditions are evaluated); Authentication',
    text: 'A server MUST ignore all received preconditions if its response to the same request without those conditions, prior to processing the request content, would have been a status code other than a 2xx (Successful) or 412 (Precondition Failed). (Without the key the answer is 401: a 304 would tell a client without it that its copy is current.)',
  },
  notModified: {
    section: 'RFC 9110 §15.4.5 (304 Not Modified); Endpoints > List animals',
    text: 'The 304 (Not Modified) status code indicates that a conditional GET or HEAD request has been received and would have resulted in a 200 (OK) response if it were not for the fact that the condition evaluated to false: the client already has a valid representation. A 304 response is terminated by the end of the header section; it cannot contain content or trailers. (A list revalidated after a create that adds an animal to it is not the same list: 200 with the animal.)',
  },
} satisfies Record<string, Statement>;
