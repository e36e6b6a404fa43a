// The pure parts of the patrol editors (routes, plans), kept apart from the components so tests need no map.
import type { Dayjs } from 'dayjs';
import type { PlanClass } from './api';

/** Moves item i of a list by d places (−1 up, +1 down); out of range changes nothing. */
export function move<T>(list: T[], i: number, d: number): T[] {
  const j = i + d;
  if (j < 0 || j >= list.length) return list;
  const out = [...list];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** A class row of the plan form: a name, a time range and the patrol user. */
export interface ClassRow {
  name: string;
  time: [Dayjs, Dayjs];
  msId: string;
}

/** Classes of a plan as the server takes them: HH:mm; an end not after the start ends the next day. */
export function toClasses(rows: ClassRow[]): PlanClass[] {
  return rows.map((c) => ({ name: c.name.trim(), startTime: c.time[0].format('HH:mm'), endTime: c.time[1].format('HH:mm'), msId: c.msId }));
}
