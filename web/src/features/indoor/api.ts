// Indoor positioning (docs/api.md "Indoor positioning"): buildings, floors with their plan image and scale, beacons
// placed on the plans (plan pixels), and the positions the server estimates from the terminals' beacon scans.
import { ApiError, http, type Page } from '../../shared/http/client';
import { queryKeys } from '../../shared/queryKeys';
import { currentToken } from '../../shared/session';

export interface Ref {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  distance: number;
}

export interface Beacon {
  id: number;
  floorId: number;
  buildingId: number;
  mac: string;
  name: string;
  /** Plan pixels. */
  x: number;
  y: number;
  /** RSSI at 1 m, dBm (−100…−50). */
  rssi: number;
  /** Environment decay (1.1…10.0). */
  decay: number;
}

/** A walkable area of a floor (corridor, room, door): a simple polygon in plan pixels (ADR 0023). */
export interface Area {
  id: number;
  floorId: number;
  buildingId: number;
  name: string;
  points: [number, number][];
}

export interface Floor {
  id: number;
  buildingId: number;
  name: string;
  level: number;
  fileId: string;
  url: string;
  width: number;
  height: number;
  /** Metres per pixel. */
  scale: number;
  ref: Ref | null;
  beacons: Beacon[];
  /** Walkable areas; none: the estimator has no walls on this floor. */
  areas: Area[];
}

export interface Building {
  id: number;
  name: string;
  remark: string;
  floors: Floor[];
}

export interface Position {
  msId: string;
  name?: string;
  buildingId: number;
  floorId: number;
  /** Plan pixels. */
  x: number;
  y: number;
  /** Metres. */
  accuracy: number;
  /** Without the 3 m promise: the track has not settled yet (its first scans on a floor) or states worse than 1.5 m (ADR 0023). */
  uncertain: boolean;
  beacons: number;
  time: number;
}

/** A terminal's track: truncated when the server left positions out (a day of one a second at most). */
export interface History extends Page<Position> {
  truncated?: boolean;
}

export const INDOOR_PATHS = {
  buildings: '/ds/indoor/building/list',
  addBuilding: '/ds/indoor/building/add',
  updateBuilding: '/ds/indoor/building/update',
  deleteBuilding: '/ds/indoor/building/delete',
  addFloor: '/ds/indoor/floor/add',
  updateFloor: '/ds/indoor/floor/update',
  deleteFloor: '/ds/indoor/floor/delete',
  addBeacon: '/ds/indoor/beacon/add',
  updateBeacon: '/ds/indoor/beacon/update',
  deleteBeacon: '/ds/indoor/beacon/delete',
  addArea: '/ds/indoor/area/add',
  updateArea: '/ds/indoor/area/update',
  deleteArea: '/ds/indoor/area/delete',
  last: '/ds/indoor/position/last',
  history: '/ds/indoor/position/history',
  upload: '/filews/upload/media',
} as const;

/** The scale of a floor: metres per pixel, or two plan points and their distance in metres. */
export type ScaleInput = { scale: number } | { refX1: number; refY1: number; refX2: number; refY2: number; refDistance: number };

export interface FloorInput {
  buildingId?: number;
  name?: string;
  level?: number;
  fileId?: string;
}

export interface BeaconInput {
  floorId?: number;
  mac?: string;
  name?: string;
  x?: number;
  y?: number;
  rssi?: number;
  decay?: number;
}

/** buildings; last: each terminal's latest position (the live seed); seen: the terminals with a fix in a range. */
export const indoorKeys = queryKeys('indoor', ['buildings', 'last', 'seen']);

export const indoorApi = {
  buildings: () => http.get<Page<Building>>(INDOOR_PATHS.buildings),
  addBuilding: (name: string, remark = '') => http.post<Building>(INDOOR_PATHS.addBuilding, { name, remark }),
  updateBuilding: (id: number, name: string, remark = '') => http.put<Building>(INDOOR_PATHS.updateBuilding, { id, name, remark }),
  deleteBuilding: (id: number) => http.del<{ id: number }>(INDOOR_PATHS.deleteBuilding, { id }),
  addFloor: (f: FloorInput, scale: ScaleInput) => http.post<Floor>(INDOOR_PATHS.addFloor, { ...f, ...scale }),
  updateFloor: (id: number, f: FloorInput, scale?: ScaleInput) => http.put<Floor>(INDOOR_PATHS.updateFloor, { id, ...f, ...(scale ?? {}) }),
  deleteFloor: (id: number) => http.del<{ id: number }>(INDOOR_PATHS.deleteFloor, { id }),
  addBeacon: (b: BeaconInput) => http.post<Beacon>(INDOOR_PATHS.addBeacon, b),
  updateBeacon: (id: number, b: BeaconInput) => http.put<Beacon>(INDOOR_PATHS.updateBeacon, { id, ...b }),
  deleteBeacons: (ids: number[]) => http.del<{ ids: number[] }>(INDOOR_PATHS.deleteBeacon, { ids: ids.join(',') }),
  addArea: (floorId: number, name: string, points: [number, number][]) => http.post<Area>(INDOOR_PATHS.addArea, { floorId, name, points }),
  updateArea: (id: number, a: { name?: string; points?: [number, number][] }) => http.put<Area>(INDOOR_PATHS.updateArea, { id, ...a }),
  deleteAreas: (ids: number[]) => http.del<{ ids: number[] }>(INDOOR_PATHS.deleteArea, { ids: ids.join(',') }),
  /** Each terminal's latest position since a time (default the last 24 hours), in a building or anywhere. */
  last: (buildingId?: number, since?: number) => http.get<Page<Position>>(INDOOR_PATHS.last, { buildingId, since }),
  history: (msId: string, sTime: number, eTime: number, floorId?: number) =>
    http.get<History>(INDOOR_PATHS.history, { msId, sTime, eTime, floorId }),
};

/** Uploads a floor-plan image through the file service (kind image) and returns its file id. */
export async function uploadPlan(file: File): Promise<string> {
  const form = new FormData();
  const token = currentToken();
  if (token) form.append('token', token);
  form.append('kind', 'image');
  form.append('file', file, file.name);
  let env: { code?: string | number; msg?: string; key?: string; result?: { id: string } };
  try {
    const res = await fetch(INDOOR_PATHS.upload, { method: 'POST', body: form, headers: token ? { token } : {}, credentials: 'same-origin' });
    env = (await res.json()) as typeof env;
  } catch (e) {
    throw new ApiError('network', e instanceof Error ? e.message : String(e), undefined, true);
  }
  if (String(env.code) !== '0' || !env.result) throw new ApiError(String(env.code ?? 'network'), env.msg ?? '', env.key);
  return env.result.id;
}
