/** A choice's options come from a label per value, in the order the labels are written. */
import { optionsOf } from '../../studio/src/components/options';

test('each value becomes an option with its label, in the order written', () => {
  expect(optionsOf({ top: 'Top', middle: 'Middle', bottom: 'Bottom' })).toEqual([
    { value: 'top', label: 'Top' },
    { value: 'middle', label: 'Middle' },
    { value: 'bottom', label: 'Bottom' },
  ]);
});

test('no labels, no options', () => {
  expect(optionsOf({})).toEqual([]);
});
