/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`, e.g. BENCH_CPU_PROF=1
 * npm run bench): self time per package, the functions with the most self
 * time and the most inclusive time, as shares of the busy (non-idle) time.
 *
 *   node dist/bench/profile-top.js bench/results/profiles/mock.cpuprofile [N]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topText = '25'] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: node dist/bench/profile-top.js FILE.cpuprofile [N]\n');
  process.exit(2);
}
const top = Number(topText);
// `| head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

const label = (node: ProfileNode): string => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*\/dist\//, 'dist/');
  return `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
};
const area = (node: ProfileNode): string => {
  const url = node.callFrame.url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  if (url.startsWith('node:')) return 'node (internal)';
  if (url.includes('/dist/')) return 'project';
  return url === '' ? node.callFrame.functionName : url;
};

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const areas = new Map<string, number>();
// Percentages are of the busy time: a server idles while the other one is measured.
let total = 0;
let idle = 0;
const add = (map: Map<string, number>, key: string, us: number): void => {
  map.set(key, (map.get(key) ?? 0) + us);
};
profile.samples.forEach((id, index) => {
  const us = profile.timeDeltas[index] ?? 0;
  const node = byId.get(id);
  if (!node) return;
  if (node.callFrame.functionName === '(idle)') {
    idle += us;
    return;
  }
  total += us;
  add(self, label(node), us);
  add(areas, area(node), us);
  // Each function once per sample, however often it recurses.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const frame = byId.get(at);
    if (!frame) break;
    const name = label(frame);
    if (!seen.has(name)) {
      seen.add(name);
      add(inclusive, name, us);
    }
  }
});

const print = (title: string, map: Map<string, number>): void => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((us / total) * 100).toFixed(1).padStart(6)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}\n`);
  }
};
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s busy (percentages below are of this), ${(idle / 1e6).toFixed(1)} s idle\n`);
print('Self time by package', areas);
print('Self time by function', self);
print('Inclusive time by function', inclusive);
