import type { Mail } from '#domain/mail';
import type { Mailer } from '#ports/mailer';

/** Keeps every mail handed to it; `failing` makes the next sends throw, as a refused or unreachable SES would. */
export class RecordingMailer implements Mailer {
  readonly sent: Mail[] = [];
  failing: Error | undefined;

  async send(mail: Mail): Promise<void> {
    if (this.failing) throw this.failing;
    this.sent.push({ ...mail });
  }
}
