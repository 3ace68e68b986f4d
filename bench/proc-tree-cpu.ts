/**
 * CPU seconds of this process's whole tree, children that already exited included (Linux /proc; empty
 * elsewhere). A process's cutime+cstime holds the children it reaped, so summing utime+stime+cutime+
 * cstime over the live tree counts every process that ever ran under it exactly once: short-lived
 * ffmpeg encodes are in Node's cutime, DynamoDB Local and s3rver in their own lines.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export interface TreeCpu {
  at: number;
  /** label -> CPU seconds so far (own + reaped children, per process, summed per label). */
  byLabel: Map<string, number>;
  /** Machine-wide busy CPU seconds (all cores, all tenants), from /proc/stat. */
  machineBusyS: number;
}

let hz: number | undefined;
const ticks = () => (hz ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100);

interface Stat {
  pid: number;
  ppid: number;
  ownS: number;
  reapedS: number;
}

function stat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // f[0] is field 3 (state): ppid 4, utime 14, stime 15, cutime 16, cstime 17.
    return { pid, ppid: Number(f[1]), ownS: (Number(f[11]) + Number(f[12])) / ticks(), reapedS: (Number(f[13]) + Number(f[14])) / ticks() };
  } catch {
    return undefined;
  }
}

function machineBusyS(): number {
  try {
    const n = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
    return (total - (n[3] ?? 0) - (n[4] ?? 0)) / ticks();
  } catch {
    return NaN;
  }
}

/**
 * `label(cmdline)` names a live process; the CPU of the children a process reaped goes to
 * `reapedLabel(label)` (for Node: the ffmpeg encodes it ran).
 */
export function snapshotTreeCpu(label: (cmdline: string) => string, reapedLabel: (label: string) => string): TreeCpu {
  const byLabel = new Map<string, number>();
  const add = (key: string, s: number) => byLabel.set(key, (byLabel.get(key) ?? 0) + s);
  let all: Stat[] = [];
  try {
    all = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map((n) => stat(Number(n))).filter((s): s is Stat => !!s);
  } catch {
    return { at: Date.now(), byLabel, machineBusyS: NaN };
  }
  const children = new Map<number, Stat[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const queue = all.filter((s) => s.pid === process.pid);
  while (queue.length) {
    const s = queue.shift()!;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${s.pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      // gone between the two reads: its time is in its parent's cutime next time
    }
    const name = label(cmdline);
    add(name, s.ownS);
    if (s.reapedS > 0) add(reapedLabel(name), s.reapedS);
    queue.push(...(children.get(s.pid) ?? []));
  }
  return { at: Date.now(), byLabel, machineBusyS: machineBusyS() };
}

/** CPU seconds per label between two snapshots, largest first. */
export function treeCpuBetween(before: TreeCpu, after: TreeCpu): { label: string; cpuS: number }[] {
  const labels = new Set([...before.byLabel.keys(), ...after.byLabel.keys()]);
  return [...labels]
    .map((label) => ({ label, cpuS: (after.byLabel.get(label) ?? 0) - (before.byLabel.get(label) ?? 0) }))
    .filter((r) => Math.abs(r.cpuS) > 0.005)
    .sort((a, b) => b.cpuS - a.cpuS);
}
