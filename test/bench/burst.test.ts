/**
 * What the burst and batch sections read from a run of jobs (bench/burst.ts): the completions'
 * figures and the table of where the stack's CPU went.
 */
import { completionFigures, cpuTable, doneRows } from '#bench/burst';

const run = { wallS: 20, stackCpuS: 30, cores: 2, shares: [{ label: 'Node: API + pipeline + Skia', cpuS: 24 }, { label: 's3rver', cpuS: 6 }] };

describe('completion figures', () => {
  test('first, median and last done, videos a minute, CPU a video and cores kept busy', () => {
    const figures = completionFigures([4, 10, 6, 12], run);
    expect(figures).toMatchObject({ first: 4, mid: 8, last: 12, perMinute: 20, perVideo: 7.5, busy: 0.75 });
    expect(doneRows(figures)).toEqual([
      ['first done (s)', '4.0', '', ''],
      ['median done (s)', '8.0', '', ''],
      ['last done (s)', '12.0', '', ''],
    ]);
  });

  test('count the pairs where a job finished before one submitted earlier', () => {
    expect(completionFigures([1, 2, 3], run).inversions).toBe(0);
    expect(completionFigures([3, 1, 2], run).inversions).toBe(2);
    expect(completionFigures([3, 2, 1], run).inversions).toBe(3);
  });
});

test("the CPU table gives each process's seconds, per video and share of the stack's", () => {
  expect(cpuTable('the burst', run, 4)).toEqual({
    title: "where the burst's CPU went (30.0 CPU-s in 20.0 s)",
    head: ['process', 'CPU s', 'per video s', 'share'],
    rows: [
      ['Node: API + pipeline + Skia', '24.0', '6.00', '80 %'],
      ['s3rver', '6.0', '1.50', '20 %'],
    ],
  });
});
