/**
 * CPU time per process from /proc (Linux only; elsewhere the snapshots are empty): this process and
 * its descendants, plus the whole machine, so a run can say which component its time went to and
 * how much of the machine other tenants took.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export interface CpuSnapshot {
  at: number;
  /** pid -> [label, CPU seconds so far]. */
  processes: Map<number, [string, number]>;
  /** Machine-wide busy and total CPU seconds (all cores), from /proc/stat. */
  machine?: { busy: number; total: number };
}

let ticksPerSecond: number | undefined;
function hz(): number {
  if (ticksPerSecond === undefined) {
    const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    ticksPerSecond = Number(out.stdout?.trim()) || 100;
  }
  return ticksPerSecond;
}

/** One process of this process's tree, as /proc/<pid>/stat and cmdline tell. */
export interface TreeProcess {
  pid: number;
  ppid: number;
  /** Its own CPU seconds (utime + stime). */
  ownS: number;
  /** The CPU seconds of the children it has reaped (cutime + cstime). */
  reapedS: number;
  /** The command line, spaces for NULs; '' when the process ended before it was read. */
  cmdline: string;
}

function readStat(pid: number): Omit<TreeProcess, 'cmdline'> | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields start after the last ')'.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // f[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
    return { pid, ppid: Number(f[1]), ownS: (Number(f[11]) + Number(f[12])) / hz(), reapedS: (Number(f[13]) + Number(f[14])) / hz() };
  } catch {
    return undefined;
  }
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** This process and every descendant, parents before children; empty where /proc cannot be read. */
export function processTree(): TreeProcess[] {
  let stats: Omit<TreeProcess, 'cmdline'>[];
  try {
    stats = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map((name) => readStat(Number(name)))
      .filter((s): s is Omit<TreeProcess, 'cmdline'> => s !== undefined);
  } catch {
    return [];
  }
  const children = new Map<number, typeof stats>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const tree: TreeProcess[] = [];
  const queue = stats.filter((s) => s.pid === process.pid);
  while (queue.length) {
    const s = queue.shift()!;
    tree.push({ ...s, cmdline: cmdlineOf(s.pid) });
    queue.push(...(children.get(s.pid) ?? []));
  }
  return tree;
}

export function machineCpu(): CpuSnapshot['machine'] {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [, ...values] = line.trim().split(/\s+/);
    const n = values.map(Number);
    // user nice system idle iowait irq softirq steal
    const idle = (n[3] ?? 0) + (n[4] ?? 0);
    const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: (total - idle) / hz(), total: total / hz() };
  } catch {
    return undefined;
  }
}

/** CPU seconds of this process and every descendant, labelled by `label(pid, cmdline)`. */
export function snapshotCpu(label: (pid: number, cmdline: string) => string): CpuSnapshot {
  const processes = new Map<number, [string, number]>();
  for (const p of processTree()) processes.set(p.pid, [p.cmdline ? label(p.pid, p.cmdline) : `pid ${p.pid}`, p.ownS]);
  return { at: Date.now(), processes, machine: machineCpu() };
}

export interface CpuShare {
  label: string;
  cpuS: number;
}

/** CPU seconds per label between two snapshots, for processes alive at both. */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): { shares: CpuShare[]; wallS: number; machineBusyS?: number } {
  const byLabel = new Map<string, number>();
  for (const [pid, [label, cpuS]] of after.processes) {
    const start = before.processes.get(pid)?.[1];
    if (start === undefined) continue;
    byLabel.set(label, (byLabel.get(label) ?? 0) + cpuS - start);
  }
  return {
    shares: [...byLabel.entries()].map(([label, cpuS]) => ({ label, cpuS })).sort((a, b) => b.cpuS - a.cpuS),
    wallS: (after.at - before.at) / 1000,
    machineBusyS: before.machine && after.machine ? after.machine.busy - before.machine.busy : undefined,
  };
}
