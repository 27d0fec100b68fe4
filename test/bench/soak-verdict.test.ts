import { describe, expect, it } from 'vitest';
import { DEFAULT_RSS_CEILING_MIB, readSoakConfig } from '../../bench/soak-config.js';
import { DEFAULT_MAX_CATALOGUE_BYTES } from '../../src/mock/core/catalogue/catalogue-limits.js';
import { DEFAULT_JOURNAL_SIZE } from '../../src/mock/core/journal/request-journal.js';
import { memoryCeiling } from '../../src/mock/memory-ceiling.js';
import { DEFAULT_MAX_SESSIONS } from '../../src/mock/core/store/store-limits.js';
import { DEFAULT_MAX_CONNECTIONS } from '../../src/mock/http/transport/transport-limits.js';
import { countUnexpected5xx, statusKey } from '../../bench/soak-tally.js';
import { levelOff, timeline, verdicts, type Sample } from '../../bench/soak-verdict.js';

/**
 * The soak benchmark's pure logic (npm run bench:soak): how answers are
 * told apart, when RSS counts as levelled off, and the verdict lines. The
 * benchmark itself is never run by the tests: it measures, it does not test.
 */
describe('soak: which 5xx are failures', () => {
  it('counts 503 server_busy, 503 too_many_sessions and 507 catalogue_full as the bounds answering, any other 5xx as a failure', () => {
    const counts = {
      [statusKey(201, '{}')]: 10,
      [statusKey(503, '{"code":"server_busy","message":"m","status":503}')]: 3,
      [statusKey(507, '{"code":"catalogue_full","message":"m","status":507}')]: 4,
      [statusKey(503, '{"code":"too_many_sessions","message":"m","status":503}')]: 6,
      [statusKey(503, '{"code":"service_unavailable","message":"m","status":503}')]: 1,
      [statusKey(500, 'not json')]: 2,
      [statusKey(507, '')]: 5,
    };
    expect(Object.keys(counts).sort()).toEqual(['201', '500 ?', '503 server_busy', '503 service_unavailable', '503 too_many_sessions', '507 ?', '507 catalogue_full']);
    expect(countUnexpected5xx(counts)).toBe(1 + 2 + 5);
  });

  it('counts the proxy not reaching its target (502) or not getting its answer in time (504) as a failure', () => {
    const counts = {
      [statusKey(502, '{"code":"upstream_unavailable","message":"m","status":502}')]: 3,
      [statusKey(504, '{"code":"upstream_timeout","message":"m","status":504}')]: 4,
    };
    expect(countUnexpected5xx(counts)).toBe(3 + 4);
  });
});

describe('soak: RSS levelled off', () => {
  it('compares the largest RSS of the last third with that of the middle third, ignoring the climb of the first', () => {
    expect(levelOff([60, 500, 400, 410, 405, 420], 0.1)).toMatchObject({ middleMaxMiB: 410, lastMaxMiB: 420, levelled: true });
    const growing = levelOff([60, 100, 200, 300, 400, 500], 0.1);
    expect(growing?.levelled).toBe(false);
    expect(growing?.growth).toBeCloseTo(500 / 300 - 1);
  });

  it('gives no answer with fewer than three samples', () => {
    expect(levelOff([100, 200], 0.1)).toBeUndefined();
  });
});

describe('soak: verdicts', () => {
  const base = { crash: undefined, unexpected5xx: 0, level: levelOff([1, 2, 2, 2], 0.1), largestRssMiB: 500, rssCeilingMiB: 1024, tolerance: 0.1 };
  const passes = (input: Parameters<typeof verdicts>[0]) => Object.fromEntries(verdicts(input).map((v) => [v.check, v.pass]));

  it('passes all four on a run that stayed up, flat and under the ceiling', () => {
    expect(passes(base)).toEqual({ 'no crash': true, 'no unexpected 5xx': true, 'RSS levelled off': true, 'largest RSS under the ceiling': true });
  });

  it('fails levelling off as well when the process died, whatever its last samples say', () => {
    expect(passes({ ...base, crash: 'killed by SIGABRT' })).toMatchObject({ 'no crash': false, 'RSS levelled off': false });
  });

  it('fails at the ceiling, on an unexpected 5xx, and without a measurement', () => {
    expect(passes({ ...base, largestRssMiB: 1024 })['largest RSS under the ceiling']).toBe(false);
    expect(passes({ ...base, largestRssMiB: undefined })['largest RSS under the ceiling']).toBe(false);
    expect(passes({ ...base, unexpected5xx: 1 })['no unexpected 5xx']).toBe(false);
  });
});

describe('soak: the timeline', () => {
  const sample = (t: number, rssMiB: number | undefined): Sample => ({ t, alive: rssMiB !== undefined, rssMiB, peakRssMiB: rssMiB, heap: undefined, answers: { '200': 10 }, errors: 0 });

  it('gives each window the state at its end, its largest RSS and its rate', () => {
    const samples = [sample(1, 100), sample(2, 300), sample(3, 200), sample(4, 250)];
    expect(timeline(samples, 2).map(({ t, rssMiB, maxRssMiB, answersPerS }) => ({ t, rssMiB, maxRssMiB, answersPerS }))).toEqual([
      { t: 2, rssMiB: 300, maxRssMiB: 300, answersPerS: 10 },
      { t: 4, rssMiB: 250, maxRssMiB: 250, answersPerS: 10 },
    ]);
  });

  it('keeps the last RSS read in a window where the process died', () => {
    expect(timeline([sample(1, 100), sample(2, undefined)], 1)[0]).toMatchObject({ rssMiB: 100, maxRssMiB: 100 });
  });
});

describe('soak: the RSS ceiling', () => {
  it('is by default the most memory the default flags allow, as the start-up warning estimates it (within 1 %)', () => {
    const defaults = { maxSessions: DEFAULT_MAX_SESSIONS, journalSize: DEFAULT_JOURNAL_SIZE, maxCatalogueBytes: DEFAULT_MAX_CATALOGUE_BYTES, maxConnections: DEFAULT_MAX_CONNECTIONS };
    const estimate = memoryCeiling(defaults).bytes / 1024 / 1024;
    expect(Math.abs(DEFAULT_RSS_CEILING_MIB - estimate) / estimate).toBeLessThan(0.01);
  });
});

describe('soak: --minutes and --proxy', () => {
  it('takes fractions and both spellings; refuses what is not a positive number', () => {
    expect(readSoakConfig([], {})).toEqual({ minutes: 10, proxy: false, rssCeilingMiB: DEFAULT_RSS_CEILING_MIB });
    expect(readSoakConfig(['--minutes', '0.5'], { SOAK_RSS_CEILING_MIB: '800' })).toEqual({ minutes: 0.5, proxy: false, rssCeilingMiB: 800 });
    expect(readSoakConfig(['--proxy', '--minutes', '0.5'], {})).toEqual({ minutes: 0.5, proxy: true, rssCeilingMiB: DEFAULT_RSS_CEILING_MIB });
    expect(readSoakConfig(['--minutes=2'], {}).minutes).toBe(2);
    for (const argv of [['--minutes'], ['--minutes', '0'], ['--minutes', '-1'], ['--minutes', 'ten'], ['--seconds', '5'], ['--proxy=yes']]) {
      expect(() => readSoakConfig(argv, {})).toThrow(/minutes|unknown argument/);
    }
    expect(() => readSoakConfig([], { SOAK_RSS_CEILING_MIB: 'lots' })).toThrow(/SOAK_RSS_CEILING_MIB/);
  });
});
