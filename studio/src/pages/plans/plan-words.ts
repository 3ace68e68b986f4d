/**
 * The plan table in words: each plan's price, and what choosing it would do from the plan in force.
 * Plans are listed smallest first, and that order decides what is an upgrade (functions/domain/plans.ts):
 * an upgrade holds at once, a downgrade waits for the next billing period, and asking for the plan in
 * force again while a downgrade waits cancels it. Pure: the page and a test read the same words.
 */
import type { Account, Plan, PlanChange, PlanName, Plans } from '#client/types';

export const planTitle = (name: PlanName) => name.charAt(0).toUpperCase() + name.slice(1);

/** "Free", "$19 a month". */
export function priceOf(price: Plan['price']): string {
  if (price.amount === 0) return 'Free';
  const whole = price.amount % 100 === 0;
  const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: price.currency.toUpperCase(), minimumFractionDigits: whole ? 0 : 2 }).format(price.amount / 100);
  return `${money} a ${price.interval}`;
}

/** A day of the billing calendar (periods are calendar months in UTC). */
const dayOf = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

type RowAction = 'upgrade' | 'downgrade' | 'keep';

export interface PlanRow {
  /** "Current plan", "From 1 December 2026". */
  badge: string | null;
  action: { kind: RowAction; label: string } | null;
  /** Why the plan cannot be chosen here, when it cannot. */
  unavailable: string | null;
}

type PlanState = Pick<Account, 'plan' | 'pending_plan' | 'plan_changes_at'>;

export function planRow(plan: Plan, account: PlanState, order: PlanName[], billing: Plans['billing']): PlanRow {
  const title = planTitle(plan.name);
  if (plan.name === account.plan) {
    // Asking for the plan in force again is how a waiting downgrade is called off.
    return { badge: 'Current plan', action: account.pending_plan ? { kind: 'keep', label: `Keep ${title}` } : null, unavailable: null };
  }
  if (plan.name === account.pending_plan) return { badge: account.plan_changes_at ? `From ${dayOf(account.plan_changes_at)}` : 'Next period', action: null, unavailable: null };
  const upgrade = order.indexOf(plan.name) > order.indexOf(account.plan);
  if (plan.price.amount > 0 && billing === 'not_configured') return { badge: null, action: null, unavailable: 'Paid plans are not available on this deployment.' };
  return { badge: null, action: upgrade ? { kind: 'upgrade', label: `Upgrade to ${title}` } : { kind: 'downgrade', label: `Downgrade to ${title}` }, unavailable: null };
}

/** What a plan change did, for the notification after it. */
export function changeWords(answer: Pick<PlanChange, 'change' | 'account'>): { title: string; message: string } {
  const { account } = answer;
  const now = planTitle(account.plan);
  switch (answer.change) {
    case 'upgraded':
      return { title: `You are on ${now} now`, message: "Its allowance and limits hold from now on; the units already used this month still count." };
    case 'downgrade_scheduled':
      return {
        title: `${planTitle(account.pending_plan ?? account.plan)} from ${account.plan_changes_at ? dayOf(account.plan_changes_at) : 'the next period'}`,
        message: `${now} and its allowance stay until then.`,
      };
    case 'downgrade_cancelled':
      return { title: `${now} stays`, message: 'The waiting downgrade is cancelled.' };
    case 'checkout':
      return { title: 'Off to payment', message: 'The plan changes once the payment is confirmed.' };
    default:
      return { title: `You are already on ${now}`, message: 'Nothing changed.' };
  }
}

/** The plan in force in a sentence, with a waiting downgrade and when it takes over. */
export function currentPlanLine(account: PlanState): string {
  const line = `You are on the ${planTitle(account.plan)} plan.`;
  if (!account.pending_plan) return line;
  const when = account.plan_changes_at ? `on ${dayOf(account.plan_changes_at)}, when the next billing period starts` : 'when the next billing period starts';
  return `${line} It changes to ${planTitle(account.pending_plan)} ${when}; until then ${planTitle(account.plan)}'s allowance and limits hold.`;
}
