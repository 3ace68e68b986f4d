/**
 * The units an action spends, said next to its button with what the month has left (GET /usage's
 * allowance): one unit per video and one per regeneration, reserved when the job starts, given back if
 * it fails; approving a preview spends nothing (docs/decisions.md, The allowance ledger).
 */
import type { Schemas } from '#client/types';

type Allowance = Schemas['Usage']['allowance'];

export interface UnitsNote {
  text: string;
  /** False when the month has fewer units left than the action needs: the API would answer 402. */
  enough: boolean;
}

const units = (n: number) => `${n} unit${n === 1 ? '' : 's'}`;

/** `cost` units for the action; without the allowance (not loaded yet), what it costs alone. */
export function unitsNote(cost: number, allowance?: Allowance): UnitsNote {
  const spends = cost === 0 ? 'Costs nothing' : `Uses ${units(cost)}`;
  if (!allowance) return { text: `${spends} of your monthly allowance.`, enough: true };
  const { remaining, limit } = allowance;
  if (remaining < cost) {
    const left = remaining === 0 ? 'none is left this month' : `only ${remaining} of ${limit} are left this month`;
    return { text: `${cost === 1 ? 'Needs 1 unit' : `Needs ${units(cost)}`}, and ${left}.`, enough: false };
  }
  return { text: `${spends} · ${remaining} of ${limit} units left this month.`, enough: true };
}
