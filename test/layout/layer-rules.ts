import type { LayerRule } from './import-graph.js';

/** A repository path under `dir`. */
const under =
  (dir: string) =>
  (path: string): boolean =>
    path.startsWith(`${dir}/`);

/** A file directly in the steps' folder (the admin guard's folder composes its own steps from them). */
const STEP_FILE = /^src\/mock\/http\/steps\/[^/]+\.ts$/;

/** The web framework's packages: the mock's core must run without them. */
const isHono = (target: string): boolean => target === 'hono' || target.startsWith('hono/') || target.startsWith('@hono/');

/**
 * Who may import whom in src/. What judges one exchange and reports it
 * (src/verdict/) is shared by the harness and the mock's proxy, and
 * imports neither. The harness and the
 * contract document's code stand apart from the mock, so the harness can test any server
 * and the contract is the one both sides read; the mock's core is its
 * behaviour without HTTP, so it imports neither Hono nor the mock's HTTP
 * layer.
 */
export const LAYER_RULES: readonly LayerRule[] = [
  { name: 'src/mock/core/ imports no Hono (hono, hono/*, @hono/*)', appliesTo: under('src/mock/core'), forbids: isHono },
  { name: 'src/mock/core/ imports nothing under src/mock/http/', appliesTo: under('src/mock/core'), forbids: under('src/mock/http') },
  {
    name: 'src/document/ imports nothing under src/mock/ or src/contract-tests/',
    appliesTo: under('src/document'),
    forbids: (target) => under('src/mock')(target) || under('src/contract-tests')(target),
  },
  {
    name: 'src/shared/ imports nothing under src/document/, src/mock/ or src/contract-tests/',
    appliesTo: under('src/shared'),
    forbids: (target) => under('src/document')(target) || under('src/mock')(target) || under('src/contract-tests')(target),
  },
  { name: 'src/contract-tests/ imports nothing under src/mock/', appliesTo: under('src/contract-tests'), forbids: under('src/mock') },
  {
    name: 'src/verdict/ imports nothing under src/mock/ or src/contract-tests/',
    appliesTo: under('src/verdict'),
    forbids: (target) => under('src/mock')(target) || under('src/contract-tests')(target),
  },
  // Each step is read alone: what two steps share (bearer credentials, a stub's answer) lives beside them, not in one of them.
  {
    name: 'a step of src/mock/http/steps/ imports no other step of that folder',
    appliesTo: (path) => STEP_FILE.test(path),
    forbids: (target) => STEP_FILE.test(target),
  },
  // The proxy judges an exchange and writes its report with src/verdict/, as the harness does.
  { name: 'src/mock/ imports nothing under src/contract-tests/', appliesTo: under('src/mock'), forbids: under('src/contract-tests') },
];
