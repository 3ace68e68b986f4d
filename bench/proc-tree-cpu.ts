/**
 * CPU seconds of this process's whole tree, children that already exited included (Linux /proc; empty
 * elsewhere). A process's cutime+cstime holds the children it reaped, so summing utime+stime+cutime+
 * cstime over the live tree counts every process that ever ran under it exactly once: short-lived
 * ffmpeg encodes are in Node's cutime, DynamoDB Local and s3rver in their own lines.
 */
import { machineCpu, processTree } from './proc-cpu';

export interface TreeCpu {
  at: number;
  /** label -> CPU seconds so far (own + reaped children, per process, summed per label). */
  byLabel: Map<string, number>;
  /** Machine-wide busy CPU seconds (all cores, all tenants), from /proc/stat. */
  machineBusyS: number;
}

/**
 * `label(cmdline)` names a live process; the CPU of the children a process reaped goes to
 * `reapedLabel(label)` (for Node: the ffmpeg encodes it ran).
 */
export function snapshotTreeCpu(label: (cmdline: string) => string, reapedLabel: (label: string) => string): TreeCpu {
  const byLabel = new Map<string, number>();
  const add = (key: string, s: number) => byLabel.set(key, (byLabel.get(key) ?? 0) + s);
  // A process gone between its two reads has '' as its command line; its time is in its parent's reaped time next time.
  for (const p of processTree()) {
    const name = label(p.cmdline);
    add(name, p.ownS);
    if (p.reapedS > 0) add(reapedLabel(name), p.reapedS);
  }
  return { at: Date.now(), byLabel, machineBusyS: machineCpu()?.busy ?? NaN };
}

/** CPU seconds per label between two snapshots, largest first. */
export function treeCpuBetween(before: TreeCpu, after: TreeCpu): { label: string; cpuS: number }[] {
  const labels = new Set([...before.byLabel.keys(), ...after.byLabel.keys()]);
  return [...labels]
    .map((label) => ({ label, cpuS: (after.byLabel.get(label) ?? 0) - (before.byLabel.get(label) ?? 0) }))
    .filter((r) => Math.abs(r.cpuS) > 0.005)
    .sort((a, b) => b.cpuS - a.cpuS);
}
