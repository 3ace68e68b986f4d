/** Memory of child processes, read from /proc (Linux), for the benchmarks' peak-memory figures. */
import { readdirSync, readFileSync } from 'node:fs';

/** This process's children (ffmpeg, java...). */
export function childPids(): number[] {
  try {
    // The main thread forks every child (libuv spawns from the loop thread).
    return readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    try {
      return readdirSync('/proc')
        .filter((n) => /^\d+$/.test(n))
        .map(Number)
        .filter((pid) => {
          try {
            const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
            return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
          } catch {
            return false;
          }
        });
    } catch {
      return [];
    }
  }
}

/** Peak resident memory (VmHWM) of a process so far, in MB; 0 once it is gone. */
export function vmHwmMb(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}
