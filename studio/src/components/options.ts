/**
 * The options of a choice (a segmented control, a select) from a label per value, in the order
 * written: a Record over the API's values will not compile while one of them has no label.
 */
export const optionsOf = <Value extends string>(labels: Record<Value, string>): { value: Value; label: string }[] =>
  (Object.entries(labels) as [Value, string][]).map(([value, label]) => ({ value, label }));
