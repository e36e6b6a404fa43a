import type { TrackPoint } from './units';

/** docs/geo.md's track fixture (the Go tests use it too): ten fixes a minute apart, 0.001° north each, speeds 0–9 m/s. */
export const TRACK_FIXTURE: TrackPoint[] = Array.from({ length: 10 }, (_, i) => ({
  lat: 41 + i * 0.001,
  lng: 29,
  speed: i,
  direction: 0,
  altitude: 10,
  time: 1709625600000 + i * 60_000,
}));
