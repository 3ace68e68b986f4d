/**
 * The local stack's outbox (GET /local/outbox, served by the local server only): the mails it would
 * have sent, such as password-reset links. On AWS that address is one of the studio's own pages
 * (HTML), so an answer that is not JSON means there is no local outbox: mail goes out by email.
 */
import { useQuery } from '@tanstack/react-query';

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  sent_at: string;
}

const OUTBOX_URL = '/local/outbox';

/** The mails, newest first; undefined where there is no local outbox. */
async function readLocalOutbox(): Promise<OutboxMail[] | undefined> {
  const response = await fetch(OUTBOX_URL, { headers: { accept: 'application/json' }, cache: 'no-store' });
  if (!response.ok || !response.headers.get('content-type')?.startsWith('application/json')) return undefined;
  return ((await response.json()) as { data: OutboxMail[] }).data;
}

export function useLocalOutbox(enabled = true) {
  // null, not undefined: react-query keeps no undefined result.
  return useQuery({ queryKey: ['local-outbox'], queryFn: async () => (await readLocalOutbox()) ?? null, enabled, staleTime: 0 });
}
