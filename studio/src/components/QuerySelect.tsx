/**
 * A searchable select over what a query lists: "Loading …" in place of the placeholder until it
 * answers, a note under it (what to do when nothing can be chosen yet) and the query's problem.
 */
import type { ReactNode } from 'react';
import { Select, Text, type SelectProps } from '@mantine/core';
import { ProblemAlert } from './ProblemAlert';

interface Props extends SelectProps {
  query: { isPending: boolean; error: unknown };
  /** The placeholder while the query loads: "Loading products…". */
  loadingPlaceholder: string;
  /** A line under the field; nothing when it is empty or false. */
  note?: ReactNode;
}

export function QuerySelect({ query, loadingPlaceholder, placeholder, note, ...select }: Props) {
  return (
    <div>
      <Select {...select} placeholder={query.isPending ? loadingPlaceholder : placeholder} searchable />
      {note && (
        <Text size="xs" c="gray.7" mt={4}>
          {note}
        </Text>
      )}
      <ProblemAlert error={query.error} />
    </div>
  );
}
