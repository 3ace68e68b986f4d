/** Monthly allowance periods are calendar months in UTC: what a client expects of a "monthly" allowance, the same everywhere. */

export interface BillingPeriod {
  /** `YYYY-MM`, the key the ledger is stored under. */
  id: string;
  start: string;
  end: string;
}

export function billingPeriodOf(at: Date): BillingPeriod {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  const start = new Date(Date.UTC(year, month, 1));
  const end = new Date(Date.UTC(year, month + 1, 1));
  return {
    id: `${year}-${String(month + 1).padStart(2, '0')}`,
    start: start.toISOString(),
    end: end.toISOString(),
  };
}
