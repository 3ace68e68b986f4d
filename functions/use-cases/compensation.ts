/**
 * Undo steps for a use case that writes to several places without one transaction (an upload, then a
 * record, then a call to the job runner). Each write registers how to take it back; when a later
 * write fails, the steps run newest first. A step answers false when its write is no longer ours to
 * take back (an execution that did start owns the job): the older steps are then kept too, since what
 * owns the job uses them. A step that throws is logged and stops the undo the same way, unless it is
 * best effort (an orphaned object costs storage, not correctness). The error that made the use case
 * undo is never replaced by an undo's.
 */
import { logOf, type UseCaseLog } from './log';

/** `false`: the write moved on (someone else owns it now); stop undoing. */
export type UndoStep = () => Promise<boolean | void>;

/** `undone`: every step ran; `kept`: a step said, or showed by failing, that the writes stand. */
export type UndoOutcome = 'undone' | 'kept';

export class Compensation {
  private readonly steps: { name: string; undo: UndoStep; bestEffort: boolean }[] = [];

  constructor(private readonly deps: { log?: UseCaseLog } = {}) {}

  /** Registers the undo of a write that just succeeded. */
  add(name: string, undo: UndoStep, options: { bestEffort?: boolean } = {}): void {
    this.steps.push({ name, undo, bestEffort: options.bestEffort ?? false });
  }

  /** Runs the registered steps newest first, each once. */
  async undo(): Promise<UndoOutcome> {
    while (this.steps.length > 0) {
      const step = this.steps.pop()!;
      try {
        if ((await step.undo()) === false) return this.keep();
      } catch (error) {
        logOf(this.deps).error('an undo step failed', { step: step.name, best_effort: step.bestEffort, error });
        if (!step.bestEffort) return this.keep();
      }
    }
    return 'undone';
  }

  /** Runs `work`; when it throws, undoes what was registered and rethrows the same error. */
  async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await this.undo();
      throw error;
    }
  }

  private keep(): UndoOutcome {
    this.steps.length = 0;
    return 'kept';
  }
}
