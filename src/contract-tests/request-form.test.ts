import { describe, expect, it } from 'vitest';
import { DIMENSIONS } from './generate/variations.js';
import { withFetchFields } from './request-form.js';

/** A request written another way differs from an unvaried one only where its form says: the usual form of each negotiation field is what every other request carries. */
describe('the fields every request carries', () => {
  it("are each negotiation dimension's usual form", () => {
    const sent = withFetchFields({}, false);
    expect(sent['accept-language']).toBe(DIMENSIONS.acceptLanguage[0]);
    expect(sent['accept-encoding']).toBe(DIMENSIONS.acceptEncoding[0]);
    expect(sent['user-agent']).toBe(DIMENSIONS.userAgent[0]);
  });

  it('leave a field a request gives, in any case, as given; a body without a type goes as text/plain', () => {
    expect(withFetchFields({ 'User-Agent': 'curl/8.5.0' }, true)).toEqual({ 'User-Agent': 'curl/8.5.0', 'content-type': 'text/plain;charset=UTF-8', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'accept-encoding': 'gzip, deflate' });
  });
});
