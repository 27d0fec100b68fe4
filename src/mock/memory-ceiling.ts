import { MAX_SESSION_STUBS } from './core/session-stubs/session-stubs.js';
import { openConnectionsBound } from './http/transport/transport-limits.js';

/**
 * The most memory the mock's flags let clients make it hold, from the
 * per-item costs measured for "Bounds" in docs/reference.md (`node --expose-gc
 * dist/bench/bounds-memory.js`, and the connection figures of "Connection
 * bounds"). With the defaults it is about 2.1 GiB; the start-up warns when
 * flags raise it past the heap node was given, as a full mock would then
 * crash where the defaults keep it standing.
 */
export interface CeilingFlags {
  maxSessions: number;
  journalSize: number;
  maxCatalogueBytes: number;
  maxConnections: number;
}

const MiB = 1024 * 1024;

/** Measured heap per item (docs/reference.md, Bounds). */
const COST = {
  /**
   * A journal entry at its costliest (path cut at 1,024 characters, reason at 512, bodies at 1,024 and 2,048),
   * with 32 request headers of new names filling the 2,048 characters: measured 12,142 bytes.
   */
  journalEntry: 12_150,
  /** What the open journal streams may hold: one event each, of 50 entries of at most 16 KiB of JSON. */
  streams: 16 * 50 * 16 * 1024,
  /** Heap per byte of a session's added JSON, at worst (names past U+00FF are kept at two bytes a character). */
  cataloguePerJsonByte: 2.7,
  /** An open connection holding 16 KiB of headers. */
  connection: 35_000,
  /**
   * What of an answer may still wait in the process on a connection no longer counted as busy: less than the
   * socket's high-water mark (node's default 16 KiB), as one past it keeps the connection busy until it drains.
   */
  answerTail: 16 * 1024,
  /**
   * Request bodies being read at once (the 64 MiB budget) and the one being parsed: 1 MiB of `[[],[],…]` is a tree
   * of 13.3 MiB beside its text, twice when a stub reads the body before the operation does.
   */
  bodies: (64 + 29) * MiB,
  /** The three caches of accepted Authorization values. */
  authorization: 3 * MiB,
  /**
   * A session stub at its costliest found, an object of 1,000 keys each `{}` and a string filling the 64 KiB:
   * measured 161 KiB (bench/bounds-memory.ts). MAX_STUB_VALUES keeps 64 KiB of `{}` from taking 1.3 MiB.
   */
  sessionStub: 192 * 1024,
  /** The idle process. */
  idle: 63 * MiB,
  /** A listPets page is at most 100 animals; a body at most 1 MiB. */
  largestAnimal: MiB,
  pageSize: 100,
} as const;

export interface MemoryCeiling {
  bytes: number;
  /** The parts, largest first, for the warning. */
  parts: Array<{ what: string; bytes: number }>;
}

export function memoryCeiling(flags: CeilingFlags): MemoryCeiling {
  const sessions = flags.maxSessions + 1;
  const open = openConnectionsBound(flags.maxConnections);
  // The largest answer: a page of a session's additions (or one createPet echo of a 1 MiB body).
  const answer = Math.max(COST.largestAnimal, Math.min(flags.maxCatalogueBytes, COST.pageSize * COST.largestAnimal));
  const parts = [
    { what: `catalogues (${sessions} sessions × --max-catalogue-bytes)`, bytes: sessions * flags.maxCatalogueBytes * COST.cataloguePerJsonByte },
    { what: `session stubs (${sessions} sessions × ${MAX_SESSION_STUBS})`, bytes: sessions * MAX_SESSION_STUBS * COST.sessionStub },
    { what: `journals (${sessions + 1} × --journal-size)`, bytes: (sessions + 1) * flags.journalSize * COST.journalEntry },
    { what: 'answers nobody reads (two a connection, --max-connections)', bytes: flags.maxConnections * 2 * answer },
    // Every connection open (16 × --max-connections), and as many closed by the mock and lingering (lingering-close.ts) as --max-connections.
    { what: 'connections (open, and lingering ones)', bytes: (open + flags.maxConnections) * COST.connection + open * COST.answerTail },
    { what: 'bodies in flight, key caches, journal streams and the idle process', bytes: COST.bodies + COST.authorization + COST.streams + COST.idle },
  ];
  return { bytes: parts.reduce((sum, part) => sum + part.bytes, 0), parts: parts.sort((a, b) => b.bytes - a.bytes) };
}
