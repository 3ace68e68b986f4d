/**
 * s3rver, an S3-compatible server on loopback, run as a child; objects are plain files under DATA_DIR.
 * Its store is swapped for one whose writes appear whole (s3rver-atomic.cjs), as S3's do.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { startChild, whenReady, type ManagedChild } from './child-process';
import { onFreePort } from './free-port';

/** Listens on `port`, or on a free port of its choosing (see onFreePort). */
export async function startS3Local(options: { directory: string; port?: number }): Promise<{ child: ManagedChild; endpoint: string }> {
  const { port } = options;
  return port === undefined ? onFreePort((free) => startS3LocalOn({ ...options, port: free })) : startS3LocalOn({ ...options, port });
}

async function startS3LocalOn(options: { directory: string; port: number }): Promise<{ child: ManagedChild; endpoint: string }> {
  mkdirSync(options.directory, { recursive: true });
  const child = startChild('s3rver', process.execPath, [resolve(__dirname, 's3rver-atomic.cjs'), '--directory', resolve(options.directory), '--address', '127.0.0.1', '--port', String(options.port)]);
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await whenReady(child, () => client.send(new ListBucketsCommand({})), () => client.destroy());
  return { child, endpoint };
}
