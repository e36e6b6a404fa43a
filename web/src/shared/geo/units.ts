// Units, distances and the track summary of spec §3, §9 (docs/geo.md "Units and conventions"): speeds arrive in
// m/s; km/h × 3.6, mph × 2.237 (the default, client config speedUnit), m/s as is. Distances are haversine on a
// sphere of R = 6371 km, shown in km for km/h and mph and in metres for m/s.

export type SpeedUnit = 'km/h' | 'mph' | 'm/s';
export const SPEED_UNITS: readonly SpeedUnit[] = ['mph', 'km/h', 'm/s'];
export const SPEED_FACTOR: Record<SpeedUnit, number> = { 'km/h': 3.6, mph: 2.237, 'm/s': 1 };
export const EARTH_RADIUS_M = 6_371_000;

/** The client config's unit, or mph (spec §3 "speedUnit (default mph)"). */
export function speedUnitOf(u: unknown): SpeedUnit {
  return u === 'km/h' || u === 'm/s' || u === 'mph' ? u : 'mph';
}

export function convertSpeed(metresPerSecond: number, unit: SpeedUnit): number {
  return metresPerSecond * SPEED_FACTOR[unit];
}

export function distanceUnitOf(unit: SpeedUnit): 'km' | 'm' {
  return unit === 'm/s' ? 'm' : 'km';
}

/** Metres in the distance unit of a speed unit. */
export function convertDistance(metres: number, unit: SpeedUnit): number {
  return distanceUnitOf(unit) === 'km' ? metres / 1000 : metres;
}

export const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance in metres between two [lng, lat] points. */
export function haversine(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLng = rad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Distance-to-precision rule (spec §9): the number of animation steps of a track segment of that length.
 * 50–100 m → 3, to 200 → 6, to 300 → 10, to 400 → 15, to 500 → 20, to 1000 → 30, anything else → 50.
 */
export function precision(m: number): number {
  if (m >= 50 && m <= 100) return 3;
  if (m > 100 && m <= 200) return 6;
  if (m > 200 && m <= 300) return 10;
  if (m > 300 && m <= 400) return 15;
  if (m > 400 && m <= 500) return 20;
  if (m > 500 && m <= 1000) return 30;
  return 50;
}

export interface TrackPoint {
  lat: number;
  lng: number;
  /** m/s */
  speed: number;
  direction: number;
  altitude: number;
  time: number;
  /** Metres from the previous point (server-computed; recomputed when absent). */
  dist?: number;
  precision?: number;
}

export interface TrackSummary {
  count: number;
  distance: number;
  distanceUnit: 'km' | 'm';
  distanceM: number;
  startTime: number;
  endTime: number;
  maxSpeed: number;
  minSpeed: number;
  avgSpeed: number;
  speedUnit: SpeedUnit;
}

/**
 * The summary of spec §3 computed from points, as the server does (docs/geo.md "Track query"): haversine distance,
 * first/last time, max/min and the mean of the reported speeds, in the unit; distance to 3 decimals, speeds to 2.
 */
export function summarise(points: readonly TrackPoint[], unit: SpeedUnit): TrackSummary {
  let metres = 0;
  let max = 0;
  let min = 0;
  let sum = 0;
  points.forEach((p, i) => {
    if (i > 0) metres += haversine(points[i - 1]!.lng, points[i - 1]!.lat, p.lng, p.lat);
    max = i === 0 ? p.speed : Math.max(max, p.speed);
    min = i === 0 ? p.speed : Math.min(min, p.speed);
    sum += p.speed;
  });
  const n = points.length;
  return {
    count: n,
    distance: round(convertDistance(metres, unit), 3),
    distanceUnit: distanceUnitOf(unit),
    distanceM: round(metres, 1),
    startTime: n ? points[0]!.time : 0,
    endTime: n ? points[n - 1]!.time : 0,
    maxSpeed: round(convertSpeed(max, unit), 2),
    minSpeed: round(convertSpeed(min, unit), 2),
    avgSpeed: n ? round(convertSpeed(sum / n, unit), 2) : 0,
    speedUnit: unit,
  };
}

export interface SummaryRow {
  key: 'count' | 'distance' | 'startTime' | 'endTime' | 'maxSpeed' | 'minSpeed' | 'avgSpeed';
  value: string;
}

/** The summary as the panel shows it: numbers with their units, times through the caller's formatter. */
export function summaryRows(s: TrackSummary, formatTime: (ms: number) => string): SummaryRow[] {
  const speed = (v: number) => `${v.toFixed(2)} ${s.speedUnit}`;
  return [
    { key: 'count', value: String(s.count) },
    { key: 'distance', value: `${s.distanceUnit === 'km' ? s.distance.toFixed(3) : s.distance.toFixed(1)} ${s.distanceUnit}` },
    { key: 'startTime', value: s.count ? formatTime(s.startTime) : '—' },
    { key: 'endTime', value: s.count ? formatTime(s.endTime) : '—' },
    { key: 'maxSpeed', value: speed(s.maxSpeed) },
    { key: 'minSpeed', value: speed(s.minSpeed) },
    { key: 'avgSpeed', value: speed(s.avgSpeed) },
  ];
}

/** A live speed for display, in the unit, one decimal. */
export function formatSpeed(metresPerSecond: number | undefined, unit: SpeedUnit): string {
  return typeof metresPerSecond === 'number' ? `${convertSpeed(metresPerSecond, unit).toFixed(1)} ${unit}` : '—';
}

/** A measured length: metres below 1 km, else km. */
export function formatLength(m: number): string {
  return m < 1000 ? `${m.toFixed(1)} m` : `${(m / 1000).toFixed(3)} km`;
}

/** A measured area: m² below 0.1 km², else km². */
export function formatArea(m2: number): string {
  return m2 < 100_000 ? `${m2.toFixed(0)} m²` : `${(m2 / 1e6).toFixed(3)} km²`;
}

/** Coordinates with absolute value 200 or more are micro-degrees (spec §5). */
export function normaliseCoord(v: number): number {
  return Math.abs(v) >= 200 ? v / 1_000_000 : v;
}
