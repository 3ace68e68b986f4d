/**
 * s3rver with S3's read-after-write: a PUT or COPY becomes visible whole, at once. s3rver 3.7.1 (the
 * last release) writes an object in place and answers before its file is flushed, so a HEAD or GET
 * that arrives mid-PUT sees a partial object: two jobs sharing a freshly stored built-in sound failed
 * their render that way. Here the body goes to a sibling file first and is renamed over the key once
 * it is on disk, after its metadata, so a reader gets the old bytes or the new ones, never a part.
 * Plain JavaScript because it runs as a bare `node` child, with no TypeScript loader.
 */
'use strict';

const { randomUUID, createHash } = require('node:crypto');
const { createWriteStream, promises: fsp } = require('node:fs');
const { dirname, join } = require('node:path');
const { Transform } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const S3rver = require('s3rver');
const FilesystemStore = require('s3rver/lib/stores/filesystem');

const PARTIAL_RESOURCE = 'partial-';
const PARTIAL = /\._S3rver_partial-[0-9a-f-]{36}$/;

class AtomicFilesystemStore extends FilesystemStore {
  /** A sibling of the key's files whose suffix s3rver's listings skip. */
  partialPath(bucket, key) {
    return this.getResourcePath(bucket, key, `${PARTIAL_RESOURCE}${randomUUID()}`);
  }

  async putObject(object) {
    const target = this.getResourcePath(object.bucket, object.key, 'object');
    await fsp.mkdir(dirname(target), { recursive: true });
    const partial = this.partialPath(object.bucket, object.key);
    const md5 = createHash('md5');
    let size = 0;
    const measure = new Transform({
      transform(chunk, _encoding, callback) {
        md5.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    try {
      const body = Buffer.isBuffer(object.content) ? [object.content] : object.content;
      await pipeline(body, measure, createWriteStream(partial));
      const digest = md5.digest('hex');
      await this.putMetadata(object.bucket, object.key, object.metadata, digest);
      await fsp.rename(partial, target);
      return { size, md5: digest };
    } catch (error) {
      await fsp.rm(partial, { force: true });
      throw error;
    }
  }

  async copyObject(srcBucket, srcKey, destBucket, destKey, replacementMetadata) {
    const source = this.getResourcePath(srcBucket, srcKey, 'object');
    const target = this.getResourcePath(destBucket, destKey, 'object');
    if (source === target) return super.copyObject(srcBucket, srcKey, destBucket, destKey, replacementMetadata);
    await fsp.mkdir(dirname(target), { recursive: true });
    const partial = this.partialPath(destBucket, destKey);
    try {
      await fsp.copyFile(source, partial);
      const sourceMetadata = await this.getMetadata(srcBucket, srcKey);
      await this.putMetadata(destBucket, destKey, replacementMetadata ?? sourceMetadata, JSON.parse(sourceMetadata.etag));
      await fsp.rename(partial, target);
    } catch (error) {
      await fsp.rm(partial, { force: true });
      throw error;
    }
    return this.getMetadata(destBucket, destKey);
  }
}

/** Parts left by a server killed mid-write: never listed or read, so only their disk space is lost. */
async function sweepPartials(directory) {
  const entries = await fsp.readdir(directory, { recursive: true, withFileTypes: true });
  const partials = entries.filter((e) => e.isFile() && PARTIAL.test(e.name)).map((e) => join(e.parentPath, e.name));
  await Promise.all(partials.map((path) => fsp.rm(path, { force: true })));
}

/** The options of s3rver's own command line that the local stack uses. */
function optionsOf(argv) {
  const value = (name) => {
    const at = argv.indexOf(name);
    if (at === -1 || at + 1 >= argv.length) throw new Error(`s3rver-atomic: ${name} is required`);
    return argv[at + 1];
  };
  return { directory: value('--directory'), address: value('--address'), port: Number(value('--port')), silent: true, vhostBuckets: false };
}

async function main() {
  const options = optionsOf(process.argv.slice(2));
  await sweepPartials(options.directory);
  const server = new S3rver(options);
  server.store = server.context.store = new AtomicFilesystemStore(options.directory);
  const { address, port } = await server.run();
  process.stdout.write(`S3rver listening on ${address}:${port}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
