/**
 * The local stack's webhook worker: what the outbox stream, the delivery queue and the retry schedule
 * do on AWS, on one timer. Each tick fans out the outbox's new events, then attempts what is due; ticks
 * never overlap, so a slow receiver delays the next tick rather than doubling the work.
 *
 * An outbox insert wakes it at once (`wake`, called by the table's write watcher: the local stand-in
 * for the stream). While ticks find work it ticks again soon (a lane's next delivery becomes due when
 * the one before it is settled); an idle stack is polled only for retries coming due, once a second.
 */
import type { PortSource } from '#ports/ports';
import { dispatchWebhookEvents } from '#use-cases/dispatch-webhook-events';
import { deliverDueWebhooks } from '#use-cases/deliver-webhooks';

const WEBHOOK_TICKS = {
  /** After a tick that did something: a lane's next event goes out well within a second. */
  busyMs: 250,
  /** With nothing happening: retries are minutes apart (the first 5 s), a second late is nothing. */
  idleMs: 1000,
} as const;

export function localWebhookWorker(dependencies: PortSource, log: (line: string) => void, ticks: { busyMs: number; idleMs: number } = WEBHOOK_TICKS) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  let wokenDuringTick = false;

  /** Whether the tick found anything to do. */
  const tick = async (): Promise<boolean> => {
    try {
      const deps = dependencies();
      const dispatched = await dispatchWebhookEvents(deps);
      const attempted = await deliverDueWebhooks(deps);
      return dispatched + attempted > 0;
    } catch (error) {
      log(`webhook worker: ${String(error)}`);
      return false;
    }
  };
  const schedule = (delayMs: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      wokenDuringTick = false;
      running = tick().then((busy) => {
        running = undefined;
        schedule(wokenDuringTick ? 0 : busy ? ticks.busyMs : ticks.idleMs);
      });
    }, delayMs);
    timer.unref();
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(ticks.busyMs);
    },
    /** An event was written: tick now, or right after the tick in flight. */
    wake() {
      if (stopped) return;
      if (running) wokenDuringTick = true;
      else schedule(0);
    },
    /** Stops the timer and waits for a tick in flight (an attempt takes at most its 10 s timeout). */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
