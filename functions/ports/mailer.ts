/**
 * Sends the service's mails (password-reset links). Amazon SES on AWS; on the local stack an outbox
 * in the data dir that the studio lists, so no mail leaves the machine.
 */
import type { Mail } from '#domain/mail';

export interface Mailer {
  /** Resolves once the mail is handed over (accepted by SES, written to the outbox); throws otherwise. */
  send(mail: Mail): Promise<void>;
}
