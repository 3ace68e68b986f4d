/**
 * One local stack per data dir, enforced by a lock the kernel lets go of when its holder dies: a
 * listening Linux abstract-namespace Unix socket named after the data dir. Binding it is atomic (a
 * second bind fails with EADDRINUSE) and it lives exactly as long as an open descriptor does, so a
 * stack killed with SIGKILL frees it at once, even while it lingers as an unreaped zombie or its pid
 * is reused, which a pid check cannot tell apart from a running stack.
 *
 * Hand-written because Node has no flock(2), and no maintained npm package offers one without a
 * native build.
 *
 * Limits: Linux only (the project's ffmpeg and Node packages are linux-x64 anyway); the name is per
 * network namespace, so two containers sharing one data dir over a volume do not see each other's
 * lock; and any local process could bind the name first (a denial of service, no more: the lock
 * guards against mistakes, not against other users, whom the 0700 data dir keeps out).
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { resolve } from 'node:path';

export interface InstanceLock {
  /** The socket name, for messages and tests. */
  readonly name: string;
  release(): Promise<void>;
}

/** The data dir as the kernel sees it, so a symlinked path names the same lock. */
function canonical(dataDir: string): string {
  try {
    return realpathSync(dataDir);
  } catch {
    return resolve(dataDir);
  }
}

/** The abstract socket name (leading NUL) of a data dir's lock. */
export function instanceLockName(dataDir: string): string {
  return `\0reaction-studio-${createHash('sha256').update(canonical(dataDir)).digest('hex').slice(0, 40)}`;
}

function requireLinux(): void {
  if (process.platform !== 'linux') {
    throw new Error(`the local stack's single-instance lock needs Linux abstract Unix sockets; this is ${process.platform}`);
  }
}

/** Takes the data dir's lock, or answers undefined when another process holds it. */
export async function acquireInstanceLock(dataDir: string): Promise<InstanceLock | undefined> {
  requireLinux();
  const name = instanceLockName(dataDir);
  const server: Server = createServer((socket) => socket.destroy());
  const bound = await new Promise<boolean>((resolveBound, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolveBound(false) : reject(error)));
    server.listen({ path: name }, () => resolveBound(true));
  });
  if (!bound) return undefined;
  // The lock must not keep a CLI process alive on its own; a serving stack's HTTP server does that.
  server.unref();
  let released: Promise<void> | undefined;
  return {
    name,
    release: () => (released ??= new Promise<void>((done) => server.close(() => done()))),
  };
}

/** Whether a live process holds the data dir's lock: something accepts connections on its socket. */
export async function isInstanceLockHeld(dataDir: string): Promise<boolean> {
  requireLinux();
  return new Promise<boolean>((answer) => {
    const socket = connect({ path: instanceLockName(dataDir) });
    socket.once('connect', () => {
      socket.destroy();
      answer(true);
    });
    socket.once('error', () => answer(false));
  });
}
