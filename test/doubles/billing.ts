/**
 * A billing port for use-case tests: records what it was asked, answers as it is told (apply, a
 * checkout, a BillingError), and can hold a request until the test lets it go, to line up races.
 */
import { BillingError, type Billing, type BillingEvent, type BillingKind, type BillingStep, type PlanChangeRequest } from '#ports/billing';

type Answer = BillingStep | BillingError | ((request: PlanChangeRequest) => Promise<BillingStep>);

export class RecordingBilling implements Billing {
  readonly requests: PlanChangeRequest[] = [];
  private answer: Answer = { kind: 'apply' };
  private events = new Map<string, BillingEvent>();

  constructor(readonly kind: BillingKind = 'local') {}

  /** What the next changes are answered (a step, an error to throw, or a function to run). */
  answers(answer: Answer): void {
    this.answer = answer;
  }

  /** A delivery whose body is `body` is read as `event`; any other body has a bad signature. */
  delivers(body: string, event: BillingEvent): void {
    this.events.set(body, event);
  }

  async prepareChange(request: PlanChangeRequest): Promise<BillingStep> {
    this.requests.push(request);
    const answer = this.answer;
    if (answer instanceof BillingError) throw answer;
    return typeof answer === 'function' ? answer(request) : answer;
  }

  async readEvent(body: Buffer, signature: string | undefined): Promise<BillingEvent> {
    const event = this.events.get(body.toString('utf8'));
    if (!event || signature !== 'signed') throw new BillingError('signature', 'The Stripe-Signature header does not sign this body');
    return event;
  }
}
