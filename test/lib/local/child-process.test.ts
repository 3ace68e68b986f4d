/** A service child is ready when its probe answers; one that dies first fails at once, with what it said. */
import { startChild, whenReady } from '#local/child-process';

describe('whenReady', () => {
  test('resolves once the probe succeeds, after earlier refusals', async () => {
    const child = startChild('sleeper', process.execPath, ['-e', 'setTimeout(() => {}, 30_000)']);
    let calls = 0;
    const cleanup = jest.fn();
    await whenReady(child, async () => {
      if (++calls < 3) throw new Error('not listening yet');
    }, cleanup);
    expect(calls).toBe(3);
    expect(cleanup).toHaveBeenCalledTimes(1);
    await child.stop();
  });

  test('a child that exits before it is ready fails with that (not the deadline\'s message), quoting its output', async () => {
    const child = startChild('crasher', process.execPath, ['-e', 'console.error("port 8000 is taken"); process.exit(3)']);
    await expect(whenReady(child, () => Promise.reject(new Error('connection refused')), () => undefined)).rejects.toThrow(
      /crasher exited before it was ready: port 8000 is taken/,
    );
  });
});
