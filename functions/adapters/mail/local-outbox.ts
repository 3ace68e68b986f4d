/**
 * The local stack's mail: each mail a JSON file in the data dir's outbox, none sent anywhere. The
 * local server lists them at GET /local/outbox (lib/local/outbox-endpoint.ts) for the studio's
 * "Outbox (local)" page, so a password reset can be followed through on one machine.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Mail } from '#domain/mail';
import type { Mailer } from '#ports/mailer';

export interface OutboxMail extends Mail {
  id: string;
  sent_at: string;
}

/** Older mails go past this many: a developer's outbox, not an archive. */
const KEPT = 200;
const MAIL_FILE = /^\d{13}-[0-9a-f-]{36}\.json$/;

export class LocalOutbox implements Mailer {
  constructor(
    private readonly directory: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(mail: Mail): Promise<void> {
    const sentAt = this.now();
    const id = randomUUID();
    // Millisecond-stamped names sort in sending order; written whole, then renamed, so a listing never reads half a mail.
    const name = `${String(sentAt.getTime()).padStart(13, '0')}-${id}.json`;
    // Inside the private data dir; private itself too, as a mail holds a live reset link.
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const partial = join(this.directory, `.${name}.partial`);
    const entry: OutboxMail = { id, sent_at: sentAt.toISOString(), to: mail.to, subject: mail.subject, text: mail.text };
    await writeFile(partial, JSON.stringify(entry), { mode: 0o600 });
    await rename(partial, join(this.directory, name));
    const names = await this.mailFiles();
    await Promise.all(names.slice(0, Math.max(0, names.length - KEPT)).map((old) => rm(join(this.directory, old), { force: true })));
  }

  /** Newest first. */
  async list(): Promise<OutboxMail[]> {
    const names = (await this.mailFiles()).reverse();
    const read = await Promise.all(names.map((name) => readFile(join(this.directory, name), 'utf8').catch(() => undefined)));
    // A mail pruned between the listing and its read is simply gone.
    return read.filter((text): text is string => text !== undefined).map((text) => JSON.parse(text) as OutboxMail);
  }

  private async mailFiles(): Promise<string[]> {
    const names = await readdir(this.directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    return names.filter((name) => MAIL_FILE.test(name)).sort();
  }
}
