import { describe, it } from 'vitest';
import { normalPath } from '../../shared/uri-normal-form.js';
import { variedPath } from './query-spelling.js';
import { everyUriSpelling, holdsDotSegment, spellUri } from './uri-spelling.js';
import { DIMENSIONS, everyForm, EVERY_OPERATION_DIMENSIONS, silentFormOf, type Variation } from './variations.js';

const form = (name: (typeof DIMENSIONS.pathForm)[number]): Variation => ({ pathForm: DIMENSIONS.pathForm.indexOf(name) });

describe('the target of a variation, from the origin', () => {
  it('spells the base path too, with dot segments above the root and percent-encoded dots, all naming the same resource', ({ expect }) => {
    const targets = everyUriSpelling(6).map((uri) => variedPath('/v1', '/pets/30', { limit: '5' }, { uri }));
    expect(targets.some((t) => /^\/(%76|v%31|%56)/i.test(t))).toBe(true);
    expect(targets.some((t) => t.startsWith('/../'))).toBe(true);
    expect(targets.some((t) => t.startsWith('/./') || t.startsWith('/x/../'))).toBe(true);
    expect(targets.some((t) => /\/(x\/)?%2e(%2e)?\//i.test(t))).toBe(true);
    for (const target of targets) expect(normalPath(target)).toBe('/v1/pets/30');
  });

  it('writes each form RFC 3986 does not call the same where a client or proxy does', ({ expect }) => {
    const of = (name: Parameters<typeof form>[0], query: Record<string, string> = {}) => variedPath('/v1', '/pets/30', query, form(name));
    expect(of('// before the first segment')).toBe('//v1/pets/30');
    expect(of('// before the last segment')).toBe('/v1/pets//30');
    expect(of('in upper case')).toBe('/V1/PETS/30');
    expect(of(';x=1 after the last segment')).toBe('/v1/pets/30;x=1');
    expect(of('%2F for the last /')).toBe('/v1/pets%2F30');
    expect(of('\\ for the last /')).toBe('/v1/pets\\30');
    expect(of('a fragment #x')).toBe('/v1/pets/30#x');
    expect(of('an empty query piece last (? or &)')).toBe('/v1/pets/30?');
    expect(of('an empty query piece last (? or &)', { limit: '2' })).toBe('/v1/pets/30?limit=2&');
    expect(of('an empty query piece first (?&)', { limit: '2' })).toBe('/v1/pets/30?&limit=2');
  });

  it('tries each silent form alone on every run, and the absolute-form among the equivalent ones', ({ expect }) => {
    const cases = everyForm(EVERY_OPERATION_DIMENSIONS);
    for (let k = 1; k < DIMENSIONS.pathForm.length; k++) expect(cases.filter((c) => c.pathForm === k && silentFormOf(c))).toHaveLength(1);
    expect(cases.some((c) => c.target === 1 && !silentFormOf(c))).toBe(true);
  });

  it('keeps only the dot segments of a spelling when asked, at the same places', ({ expect }) => {
    for (const uri of everyUriSpelling(6)) {
      const dots = spellUri('/v1/pets', [['limit', '5']], uri, 'dot-segments');
      expect(dots.replace(/\/(x\/)?(\.|%2e){1,2}(?=\/)/gi, '')).toBe('/v1/pets?limit=5');
      expect(holdsDotSegment(dots)).toBe(holdsDotSegment(spellUri('/v1/pets', [['limit', '5']], uri)));
    }
  });
});
