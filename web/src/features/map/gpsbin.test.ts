// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { encodeGpsBin, parseGpsBin, SnapshotError, type SnapshotRecord } from './gpsbin';

const recs: SnapshotRecord[] = [
  { msId: '10000101', lat: 41.0082, lng: 28.9784, time: 1731000000000, speed: 3.5, direction: 90, altitude: 35, battery: 80, signal: 4 },
  { msId: 'ünit-2', lat: -33.8688, lng: 151.2093, time: 1731000001000, speed: 0, direction: 359.99, altitude: -12, battery: -1, signal: -1 },
];

describe('gps_{x}.bin parser (docs/geo.md)', () => {
  it('reads what the server layout encodes', () => {
    const s = parseGpsBin(encodeGpsBin(recs, 1731000002000));
    expect(s.version).toBe(1);
    expect(s.generatedAt).toBe(1731000002000);
    expect(s.records).toHaveLength(2);
    expect(s.records[0]).toEqual(recs[0]);
    expect(s.records[1]!.msId).toBe('ünit-2');
    expect(s.records[1]!.lat).toBeCloseTo(-33.8688, 6);
    expect(s.records[1]!.direction).toBeCloseTo(359.99, 2);
    expect(s.records[1]!.battery).toBe(-1);
  });
  it('skips unknown trailing fixed fields of later versions by the record size', () => {
    const s = parseGpsBin(encodeGpsBin(recs, 0, 32));
    expect(s.records.map((r) => r.msId)).toEqual(['10000101', 'ünit-2']);
    expect(s.records[0]!.speed).toBe(3.5);
  });
  it('an empty snapshot', () => {
    expect(parseGpsBin(encodeGpsBin([], 5)).records).toEqual([]);
  });
  it('refuses a bad magic and truncated data', () => {
    const buf = encodeGpsBin(recs, 0);
    const bad = buf.slice(0);
    new Uint8Array(bad)[0] = 0x58;
    expect(() => parseGpsBin(bad)).toThrow(SnapshotError);
    expect(() => parseGpsBin(buf.slice(0, buf.byteLength - 3))).toThrow(SnapshotError);
    expect(() => parseGpsBin(new ArrayBuffer(10))).toThrow(SnapshotError);
  });
});
