/**
 * The local stack's webhook worker: what the outbox stream, the delivery queue and the retry schedule
 * do on AWS, on one timer. Each tick fans out the outbox's new events, then attempts what is due; ticks
 * never overlap, so a slow receiver delays the next tick rather than doubling the work.
 */
import type { DependencySource } from '#ports/dependencies';
import { dispatchWebhookEvents } from '#use-cases/dispatch-webhook-events';
import { deliverDueWebhooks } from '#use-cases/deliver-webhooks';

/** Short enough that an event reaches a receiver well within a second of its state change. */
const TICK_MS = 250;

export function localWebhookWorker(dependencies: DependencySource, log: (line: string) => void, tickMs = TICK_MS) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  const tick = async () => {
    try {
      const deps = dependencies();
      await dispatchWebhookEvents(deps);
      await deliverDueWebhooks(deps);
    } catch (error) {
      log(`webhook worker: ${String(error)}`);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, tickMs);
    timer.unref();
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    /** Stops the timer and waits for a tick in flight (an attempt takes at most its 10 s timeout). */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
