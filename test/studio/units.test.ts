/** What an action that spends units says beside its button (studio/src/pages/usage/units.ts). */
import { unitsNote } from '../../studio/src/pages/usage/units';

const allowance = (remaining: number, limit = 3) => ({ limit, used: limit - remaining, reserved: 0, remaining });

test('a video or a regeneration: one unit, and what the month has left', () => {
  expect(unitsNote(1, allowance(2))).toEqual({ text: 'Uses 1 unit · 2 of 3 units left this month.', enough: true });
  expect(unitsNote(1, allowance(1))).toEqual({ text: 'Uses 1 unit · 1 of 3 units left this month.', enough: true });
});

test('approving a preview costs nothing, and says so with what is left', () => {
  expect(unitsNote(0, allowance(0))).toEqual({ text: 'Costs nothing · 0 of 3 units left this month.', enough: true });
});

test('a batch needs as many units as variants; short of them the note says how many are left', () => {
  expect(unitsNote(3, allowance(3))).toMatchObject({ text: 'Uses 3 units · 3 of 3 units left this month.', enough: true });
  expect(unitsNote(3, allowance(2))).toEqual({ text: 'Needs 3 units, and only 2 of 3 are left this month.', enough: false });
  expect(unitsNote(1, allowance(0))).toEqual({ text: 'Needs 1 unit, and none is left this month.', enough: false });
});

test('before the allowance is known, only the cost', () => {
  expect(unitsNote(1)).toEqual({ text: 'Uses 1 unit of your monthly allowance.', enough: true });
  expect(unitsNote(4)).toEqual({ text: 'Uses 4 units of your monthly allowance.', enough: true });
});
