/** POST /updates/tickets: a ticket to open a live-updates socket with (docs/live-updates.md). */
import type { Operation } from '#http/api-types';
import type { NeedsOf } from '#ports/ports';
import { created } from '#http/respond';
import { issueUpdateTicket } from '#use-cases/update-sockets';

// The ticket is bound to the caller's scope: a test key's socket follows test records only.
const issueTicket: Operation<NeedsOf<typeof issueUpdateTicket>> = async (request) => created(await issueUpdateTicket(request.deps, request.principal.accountId));

export const liveUpdateOperations = { issueUpdateTicket: issueTicket };
