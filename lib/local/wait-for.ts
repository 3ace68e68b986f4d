/** Polls `probe` until it answers true: for services started as child processes, which take a while to listen. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await probe()) return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s${lastError ? `: ${String(lastError)}` : ''}`);
}
