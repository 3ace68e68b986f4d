/**
 * A chart with a heading and the same figures as a table that only screen readers get: the drawing
 * itself is hidden from them (a picture of lines says nothing read aloud), and keyboard users skip it.
 */
import type { ReactNode } from 'react';
import { Paper, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { formatCount } from './analytics-words';

interface ChartTable {
  rowHeader: string;
  columns: string[];
  rows: { label: string; values: number[] }[];
}

interface Props {
  id: string;
  title: string;
  summary: string;
  table: ChartTable;
  children: ReactNode;
}

export function ChartFigure({ id, title, summary, table, children }: Props) {
  return (
    <Paper withBorder p="md" component="figure" m={0} aria-labelledby={`${id}-title`}>
      <Title order={3} id={`${id}-title`} size="h5">
        {title}
      </Title>
      <Text size="sm" c="gray.7" mb="sm">
        {summary}
      </Text>
      <div aria-hidden="true">{children}</div>
      <VisuallyHidden>
        <Table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{table.rowHeader}</th>
              {table.columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {row.values.map((value, index) => (
                  <td key={table.columns[index]}>{formatCount(value)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </VisuallyHidden>
    </Paper>
  );
}
