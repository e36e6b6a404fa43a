// The console's tables at their edges (issue 33): a column never shrinks below a readable width, a header never
// breaks mid-word, and a table wider than its place scrolls sideways instead of squeezing its text columns to one
// character (the map's side panel is 440 px wide). Text cut short by an ellipsis column keeps its whole text as a
// tooltip (antd sets it for cells of plain text; a cell of other content carries a title of its own).
import { Table, type TableProps } from 'antd';
import type { TableColumnsType } from 'antd';
import './table.css';

/** The width a column without one of its own gets at least (px): a name or a date and time fits. */
export const MIN_COLUMN_WIDTH = 120;

/** The least width of a table with these columns: their widths, MIN_COLUMN_WIDTH for a column without one. */
export function tableMinWidth<T>(columns: TableColumnsType<T> = []): number {
  return columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : MIN_COLUMN_WIDTH), 0);
}

/** antd's Table, small, at least as wide as its columns (scrolling sideways in a narrower place). */
export function DataTable<T extends object>({ className, scroll, ...table }: TableProps<T>) {
  return <Table<T> size="small" className={className ? `tf-table ${className}` : 'tf-table'} scroll={{ x: tableMinWidth(table.columns), ...scroll }} {...table} />;
}
