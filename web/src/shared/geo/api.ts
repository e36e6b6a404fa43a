// Typed client of the geo calls the map screens use (docs/geo.md), with query-key factories.
import { queryOptions } from '@tanstack/react-query';
import { http } from '../http/client';
import type { LineString, Point, Polygon } from 'geojson';
import type { SpeedUnit, TrackPoint, TrackSummary } from './units';

export const GEO_PATHS = {
  lastGps: '/ds/data/getLastGps',
  track: '/ds/data/gpsByUTC',
  addMark: '/ds/custom/addMark',
  updateMark: '/ds/custom/updateMark',
  findMark: '/ds/custom/findMark',
  deleteMark: '/ds/custom/deleteMark',
  grpColor: '/ds/custom/updateGrpColor',
  msIcon: '/ds/custom/updateMsIcon',
  fenceList: '/ds/fence/list',
  fenceCreate: '/ds/fence/create',
  fenceSet: '/ds/fence/set',
  fenceDel: '/ds/fence/del',
  fenceEdit: '/ds/fence/edit',
  fenceTerminals: '/ds/fence/findter',
  fenceAlarms: '/ds/fence/fa',
  fenceAlarmBreaches: '/ds/fence/alarmBreaches',
} as const;

export interface LastGps {
  mid: string;
  lng: number;
  lat: number;
  speed: number;
  direction: number;
  altitude: number;
  time: number;
}

export interface TrackStop {
  lat: number;
  lng: number;
  start: number;
  end: number;
  /** seconds */
  duration: number;
  points: number;
}

export interface Track {
  msId: string;
  name: string;
  truncated: boolean;
  points: TrackPoint[];
  summary: TrackSummary;
  stops: TrackStop[];
}

export interface TrackQuery {
  msId: string;
  btime: number;
  etime: number;
  unit: SpeedUnit;
  stopMinutes?: number;
}

export type FenceType = 'in' | 'out';
export type FenceShape = 'polygon' | 'circle' | 'rectangle';

export interface Fence {
  fenceid: string;
  name: string;
  type: FenceType;
  shape: FenceShape;
  geometry: Polygon | Point;
  radius?: number;
  terminals: string[];
  creatorId: string;
  creator: string;
  time: number;
  updated: number;
}

export interface FenceDraft {
  name: string;
  type: FenceType;
  shape: FenceShape;
  geometry: Polygon | Point;
  radius?: number;
  msIds?: string[];
}

/** A terminal of a fence at its latest position. */
export interface FenceOccupant {
  msId: string;
  name: string;
  lat: number;
  lng: number;
  time: number;
}

/**
 * The reply of create and set: the fence and where its terminals are now — inside it (occupants), and already
 * breaking its rule (inside a keep-out fence, outside a keep-in one), which the engine does not alarm on until they
 * cross (docs/geo.md).
 */
export interface FencePlacement extends Fence {
  occupants: FenceOccupant[];
  breaching: FenceOccupant[];
}

export interface FenceTerminal {
  msId: string;
  name: string;
  online: '1' | '0';
}

/** Fence alarm record (spec §3 "Alarm record"); status 0 raised, 1 responded, 2 closed. */
export interface FenceAlarm {
  id: string;
  fenceid: string;
  fenceName: string;
  fenceType: FenceType;
  msId: string;
  msName: string;
  type: 'leave' | 'enter';
  time: number;
  lat: number;
  lng: number;
  status: 0 | 1 | 2;
  responderId: string;
  responder: string;
  responseTime: number;
  closerId: string;
  closer: string;
  closeTime: number;
  remark: string;
}

export interface AlarmQuery {
  fenceid?: string;
  msIds?: string;
  status?: string;
  sTime?: number;
  eTime?: number;
  pageNo: number;
  pageSize: number;
}

export type MarkType = 'point' | 'line' | 'shape';

export interface Mark {
  id: string;
  type: MarkType;
  name: string;
  geometry: Point | LineString | Polygon;
  color?: string;
  icon?: string;
  link?: string;
  remark?: string;
  creatorId?: string;
  creator?: string;
  time?: number;
  updated?: number;
}

export type MarkDraft = Omit<Mark, 'id' | 'creatorId' | 'creator' | 'time' | 'updated'>;

export interface Paged<T> {
  total: number;
  list: T[];
}

export const geoKeys = {
  all: ['geo'] as const,
  fences: () => [...geoKeys.all, 'fences'] as const,
  fenceTerminals: (fenceid: string) => [...geoKeys.all, 'fenceTerminals', fenceid] as const,
  alarms: (q: AlarmQuery) => [...geoKeys.all, 'alarms', q] as const,
  marks: () => [...geoKeys.all, 'marks'] as const,
  track: (q: TrackQuery) => [...geoKeys.all, 'track', q] as const,
  lastGps: () => [...geoKeys.all, 'lastGps'] as const,
};

export const geoApi = {
  lastGps: () => http.get<LastGps[]>(GEO_PATHS.lastGps),
  track: (q: TrackQuery) =>
    http.get<Track>(GEO_PATHS.track, { dcid: q.msId, btime: q.btime, etime: q.etime, unit: q.unit, stopMinutes: q.stopMinutes }),

  fences: () => http.get<Fence[]>(GEO_PATHS.fenceList),
  createFence: (d: FenceDraft) => http.post<FencePlacement>(GEO_PATHS.fenceCreate, d),
  editFence: (fenceid: string, patch: Partial<FenceDraft>) => http.put<Fence>(GEO_PATHS.fenceEdit, { fenceid, ...patch }),
  setFenceTerminals: (fenceid: string, change: { add?: string[]; remove?: string[]; msIds?: string[] }) =>
    http.post<FencePlacement>(GEO_PATHS.fenceSet, { fenceid, ...change }),
  /** Raises the fence's alarm now for its terminals already breaking its rule (all, or those of msIds). */
  alarmBreaches: (fenceid: string, msIds?: string[]) => http.post<{ list: FenceAlarm[] }>(GEO_PATHS.fenceAlarmBreaches, { fenceid, msIds }),
  deleteFences: (ids: string[]) => http.put<{ deleted: number }>(GEO_PATHS.fenceDel, { fenceid: ids.join(',') }),
  fenceTerminals: (fenceid: string) => http.get<FenceTerminal[]>(GEO_PATHS.fenceTerminals, { fenceid }),
  alarms: (q: AlarmQuery) => http.get<Paged<FenceAlarm>>(GEO_PATHS.fenceAlarms, { ...q }),
  /** status 1 responds, 2 closes = cancels (log 127). */
  handleAlarms: (ids: string[], status: 1 | 2, remark?: string) =>
    http.put<{ list: FenceAlarm[] }>(GEO_PATHS.fenceAlarms, { id: ids.join(','), status: String(status), remark }),

  marks: () => http.get<Mark[]>(GEO_PATHS.findMark),
  addMark: (m: MarkDraft) => http.post<Mark>(GEO_PATHS.addMark, m),
  updateMark: (id: string, patch: Partial<MarkDraft>) => http.put<Mark>(GEO_PATHS.updateMark, { id, ...patch }),
  deleteMarks: (ids: string[]) => http.del<{ deleted: number }>(GEO_PATHS.deleteMark, { id: ids.join(',') }),

  groupColor: (gid: string, color: string) => http.put<{ gid: string; color: string }>(GEO_PATHS.grpColor, { gid, color }),
  terminalIcon: (msIds: string[], icon: string, image: string) =>
    http.put<{ msIds: string[]; icon: string; image: string }>(GEO_PATHS.msIcon, { msId: msIds.join(','), icon, image }),

};

export const fencesQuery = () => queryOptions({ queryKey: geoKeys.fences(), queryFn: geoApi.fences, staleTime: 60_000 });
export const marksQuery = () => queryOptions({ queryKey: geoKeys.marks(), queryFn: geoApi.marks, staleTime: 60_000 });
export const fenceTerminalsQuery = (fenceid: string) =>
  queryOptions({ queryKey: geoKeys.fenceTerminals(fenceid), queryFn: () => geoApi.fenceTerminals(fenceid), enabled: !!fenceid });
export const alarmsQuery = (q: AlarmQuery) => queryOptions({ queryKey: geoKeys.alarms(q), queryFn: () => geoApi.alarms(q) });

/** Marker link format (spec §5, docs/geo.md code 62): empty, or an absolute http(s) URL with a host, no spaces, ≤ 1024. */
export function isValidMarkLink(link: string | undefined): boolean {
  if (!link) return true;
  if (link.length > 1024 || /\s/.test(link)) return false;
  try {
    const u = new URL(link);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

/** Mark and fence colours: #rgb, #rrggbb or #rrggbbaa. */
export function isValidColor(c: string | undefined): boolean {
  return !c || /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(c);
}
