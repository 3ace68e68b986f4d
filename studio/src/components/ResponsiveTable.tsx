/**
 * A table that becomes cards on phones (responsive-table.module.css): give each cell `data-label`
 * with its column's name. On wider screens it keeps `minWidth` and scrolls sideways in its own box.
 */
import type { CSSProperties } from 'react';
import { Table, type TableProps } from '@mantine/core';
import classes from './responsive-table.module.css';

export function ResponsiveTable({ minWidth, children, ...props }: TableProps & { minWidth: number }) {
  return (
    <div className={classes.scroll}>
      <Table {...props} className={classes.table} style={{ '--table-min-width': `${minWidth}px` } as CSSProperties}>
        {children}
      </Table>
    </div>
  );
}
