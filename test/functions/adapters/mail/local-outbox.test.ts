/** The local stack's outbox: mails kept as files in the data dir, listed newest first. */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalOutbox } from '#adapters/mail/local-outbox';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rs-outbox-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A clock that moves one second per reading, from a fixed start. */
function ticking(start = Date.parse('2026-11-25T12:00:00.000Z')) {
  let at = start;
  return () => new Date((at += 1000));
}

const mail = (n: number) => ({ to: `person${n}@example.com`, subject: `Mail ${n}`, text: `Body ${n}\nwith a second line` });

test('an outbox that was never written to lists nothing', async () => {
  expect(await new LocalOutbox(join(dir, 'outbox')).list()).toEqual([]);
});

test('sent mails are listed newest first, whole, each with an id and the time it was sent', async () => {
  const outbox = new LocalOutbox(join(dir, 'outbox'), ticking());
  await outbox.send(mail(1));
  await outbox.send(mail(2));
  const listed = await outbox.list();
  expect(listed).toEqual([
    { ...mail(2), id: expect.stringMatching(/^[0-9a-f-]{36}$/), sent_at: '2026-11-25T12:00:02.000Z' },
    { ...mail(1), id: expect.stringMatching(/^[0-9a-f-]{36}$/), sent_at: '2026-11-25T12:00:01.000Z' },
  ]);
  expect(listed[0]!.id).not.toBe(listed[1]!.id);
  // Another outbox over the same folder (the server's, say) sees the same mails.
  expect(await new LocalOutbox(join(dir, 'outbox')).list()).toEqual(listed);
});

test('a mail still being written, and files that are no mail, are not listed', async () => {
  const outbox = new LocalOutbox(dir, ticking());
  await outbox.send(mail(1));
  writeFileSync(join(dir, '.1795600000000-00000000-0000-0000-0000-000000000000.json.partial'), '{"to":');
  writeFileSync(join(dir, 'notes.txt'), 'not a mail');
  expect((await outbox.list()).map((m) => m.subject)).toEqual(['Mail 1']);
});

test('past 200 mails the oldest go', async () => {
  const outbox = new LocalOutbox(dir, ticking());
  for (let n = 1; n <= 203; n++) await outbox.send(mail(n));
  const listed = await outbox.list();
  expect(listed).toHaveLength(200);
  expect(listed[0]!.subject).toBe('Mail 203');
  expect(listed.at(-1)!.subject).toBe('Mail 4');
  expect(readdirSync(dir).filter((name) => name.endsWith('.json'))).toHaveLength(200);
});
