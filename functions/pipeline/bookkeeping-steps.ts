/** The steps of the `steps` function: records, charges, the preview wait, failures. */
import { prepare } from './tasks/prepare';
import { chargePreview } from './tasks/charge-preview';
import { awaitDecision } from './tasks/await-decision';
import { finalize } from './tasks/finalize';
import { markFailed } from './tasks/mark-failed';
import type { StepTable } from './step-tables';

export const BOOKKEEPING_STEPS: StepTable = {
  prepare,
  charge_preview: chargePreview,
  await_decision: (payload) => awaitDecision(payload),
  finalize: (payload) => finalize(payload),
  mark_failed: markFailed,
};
