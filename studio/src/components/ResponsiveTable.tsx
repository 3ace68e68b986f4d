/**
 * A table that becomes cards on phones (responsive-table.module.css): give each cell `data-label`
 * with its column's name. On wider screens it keeps `minWidth` and scrolls sideways in its own box.
 * It draws the heading row from `columns`; its children are the body's rows.
 */
import type { CSSProperties } from 'react';
import { Table, VisuallyHidden, type TableProps } from '@mantine/core';
import classes from './responsive-table.module.css';

/** A column's heading; one `{ hidden }` is read out but not shown (a row's buttons need no visible heading). */
export type Column = string | { hidden: string };

/** The heading of the column of a row's buttons (delete, revoke). */
export const ACTIONS: Column = { hidden: 'Actions' };

const headingOf = (column: Column) => (typeof column === 'string' ? column : column.hidden);

export function ResponsiveTable({ minWidth, columns, children, ...props }: TableProps & { minWidth: number; columns: readonly Column[] }) {
  return (
    <div className={classes.scroll}>
      <Table {...props} className={classes.table} style={{ '--table-min-width': `${minWidth}px` } as CSSProperties}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={headingOf(column)}>{typeof column === 'string' ? column : <VisuallyHidden>{column.hidden}</VisuallyHidden>}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </div>
  );
}
