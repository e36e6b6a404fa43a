// The console's list tables: one list query's rows in a small table, its spinner while the first answer is on its
// way, and each row's data-* attributes (the browser tests find rows by them) typed as such — antd types onRow as
// event handlers only, which every table used to cast away.
import type { HTMLAttributes } from 'react';
import type { TableProps } from 'antd';
import { DataTable } from './DataTable';

/** A row's data-* attributes, and what a click on it does. */
export type RowData = { [k: `data-${string}`]: string | number | undefined } & { onClick?: () => void; style?: HTMLAttributes<HTMLElement>['style'] };

/** A list query (a Page answer): its `list`, and whether the first answer is on its way. */
interface ListQuery<T> {
  isLoading: boolean;
  data?: { list?: T[] };
}

type Props<T> = Omit<TableProps<T>, 'dataSource' | 'loading' | 'onRow'> & {
  row?: (r: T) => RowData;
} & (
    | { query: ListQuery<T>; rows?: undefined }
    /** The rows when they are not the query's list as it came (filtered, summed up, another answer's part). */
    | { query: { isLoading: boolean }; rows: T[] }
  );

export function QueryTable<T extends object>({ query, rows, row, ...table }: Props<T>) {
  const list = rows ?? ('data' in query ? query.data?.list : undefined) ?? [];
  return <DataTable<T> rowKey="id" loading={query.isLoading} dataSource={list} onRow={row && ((r) => row(r) as HTMLAttributes<HTMLElement>)} {...table} />;
}
