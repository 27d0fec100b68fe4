import { readdirSync, readFileSync } from 'node:fs';

const MiB = 1024 * 1024;
/** USER_HZ: the unit of utime and stime in /proc/<pid>/stat; 100 on Linux. */
const CLOCK_TICKS_PER_S = 100;

/** A field of /proc/<pid>/status in MiB (VmRSS: resident now; VmHWM: peak resident), or undefined off Linux. */
export function readMemoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  return match ? (Number(match[1]) * 1024) / MiB : undefined;
}

/** User plus system CPU seconds a process has used, or undefined off Linux. */
export function readCpuSeconds(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Field 3 (state) is fields[0], so utime (14) and stime (15) are fields[11] and fields[12].
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / CLOCK_TICKS_PER_S : undefined;
}

/**
 * The ids of a process's children, from /proc/<pid>/task/<tid>/children
 * (each thread lists the children it started; Linux 3.5 or later); empty off
 * Linux. A `--workers N` mock's workers are its children.
 */
export function readChildPids(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      // The thread ended meanwhile.
      return [];
    }
  });
}

/**
 * A reading summed over a process and its descendants still running (a
 * cluster primary and its workers), or undefined when the process itself
 * cannot be read. A descendant that ended meanwhile is left out.
 */
export function readTree(pid: number, read: (pid: number) => number | undefined): number | undefined {
  const own = read(pid);
  if (own === undefined) return undefined;
  return readChildPids(pid).reduce((sum, child) => sum + (readTree(child, read) ?? 0), own);
}

/** CPU seconds of a process and its descendants (readTree). */
export const readTreeCpuSeconds = (pid: number): number | undefined => readTree(pid, readCpuSeconds);

/** CPU seconds the whole machine (all cores) has spent busy so far, from /proc/stat; undefined off Linux. */
export function readMachineBusySeconds(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  // cpu  user nice system idle iowait irq softirq steal ...
  const ticks = (stat.split('\n', 1)[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
  if (ticks.length < 8 || ticks.some((t) => !Number.isFinite(t))) return undefined;
  const [user, nice, system, , , irq, softirq, steal] = ticks as [number, number, number, number, number, number, number, number];
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_S;
}
