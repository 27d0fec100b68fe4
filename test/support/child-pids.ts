import { readFileSync } from 'node:fs';

/** The child processes of `pid` (Linux: /proc/PID/task/PID/children), e.g. the workers of `--workers N`. */
export function childPids(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(/\s+/).map(Number);
}
