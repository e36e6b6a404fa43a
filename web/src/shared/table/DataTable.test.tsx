import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { DataTable, MIN_COLUMN_WIDTH, tableMinWidth } from './DataTable';

describe('tableMinWidth', () => {
  it('adds the columns’ widths, and the least width for a column without one', () => {
    expect(tableMinWidth([{ key: 'a', width: 90 }, { key: 'b' }, { key: 'c', width: 150 }])).toBe(240 + MIN_COLUMN_WIDTH);
    expect(tableMinWidth(undefined)).toBe(0);
  });
});

// The first render of an antd table takes seconds on a busy machine.
describe('DataTable', { timeout: 30_000 }, () => {
  const columns = [
    { key: 'name', title: 'Name', dataIndex: 'name', ellipsis: true },
    { key: 'n', title: 'Terminals', dataIndex: 'n', width: 90 },
  ];

  it('scrolls sideways rather than squeezing its columns, and marks itself for the header rule', () => {
    const { container } = render(<DataTable rowKey="name" columns={columns} dataSource={[{ name: 'North gate of the depot', n: 3 }]} />);
    expect(container.querySelector('.tf-table')).not.toBeNull();
    expect(container.querySelector('table')?.style.width).toBe(`${MIN_COLUMN_WIDTH + 90}px`);
    // The cut text keeps its whole text as a tooltip.
    expect(container.querySelector('td.ant-table-cell-ellipsis')?.getAttribute('title')).toBe('North gate of the depot');
  });

  it('keeps a scroll of the caller’s own', () => {
    const { container } = render(<DataTable rowKey="name" columns={columns} dataSource={[]} scroll={{ x: 900 }} />);
    expect(container.querySelector('table')?.style.width).toBe('900px');
  });
});
