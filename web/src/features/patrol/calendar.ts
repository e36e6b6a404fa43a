// The patrol calendar's month grid (spec §9: 42 cells, six weeks from the Monday on or before the 1st) and the
// orders of each day by state.
import dayjs from 'dayjs';
import type { Order } from './api';

export const GRID_CELLS = 42;

export interface DayCell {
  day: string; // YYYY-MM-DD
  inMonth: boolean;
  waiting: number;
  normal: number;
  abnormal: number;
}

/** The first and last day of the grid of the month holding `month` (YYYY-MM or any day of it). */
export function gridRange(month: string): { first: string; last: string } {
  const start = dayjs(`${month.slice(0, 7)}-01`);
  const back = (start.day() + 6) % 7; // days since Monday
  const first = start.subtract(back, 'day');
  return { first: first.format('YYYY-MM-DD'), last: first.add(GRID_CELLS - 1, 'day').format('YYYY-MM-DD') };
}

/** The 42 cells of the month's grid with the orders of each day counted by state. */
export function monthGrid(month: string, orders: Order[]): DayCell[] {
  const { first } = gridRange(month);
  const m = month.slice(0, 7);
  const cells: DayCell[] = [];
  const byDay = new Map<string, DayCell>();
  for (let i = 0; i < GRID_CELLS; i++) {
    const day = dayjs(first).add(i, 'day').format('YYYY-MM-DD');
    const c: DayCell = { day, inMonth: day.startsWith(m), waiting: 0, normal: 0, abnormal: 0 };
    cells.push(c);
    byDay.set(day, c);
  }
  for (const o of orders) {
    const c = byDay.get(o.day);
    if (!c) continue;
    if (o.state === 1) c.normal++;
    else if (o.state === 2) c.abnormal++;
    else c.waiting++;
  }
  return cells;
}
