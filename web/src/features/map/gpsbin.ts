// Parser of the binary last-position snapshot GET /static/gps/gps_{x}.bin (docs/geo.md "Binary snapshot"):
// little-endian, header "T4GP", version, record fixed size (later versions may add trailing fixed fields, which
// the fixed size lets a reader skip), count, reserved, generated-at; then per record the fixed part and the id.

export interface SnapshotRecord {
  msId: string;
  lat: number;
  lng: number;
  time: number;
  /** m/s */
  speed: number;
  direction: number;
  altitude: number;
  /** -1 unknown */
  battery: number;
  /** -1 unknown */
  signal: number;
}

export interface Snapshot {
  version: number;
  generatedAt: number;
  records: SnapshotRecord[];
}

const MAGIC = 'T4GP';
const HEADER = 24;
const MIN_RECORD = 24;

export class SnapshotError extends Error {}

export function parseGpsBin(buf: ArrayBuffer): Snapshot {
  if (buf.byteLength < HEADER) throw new SnapshotError('snapshot shorter than its header');
  const v = new DataView(buf);
  const magic = String.fromCharCode(v.getUint8(0), v.getUint8(1), v.getUint8(2), v.getUint8(3));
  if (magic !== MAGIC) throw new SnapshotError(`bad magic ${JSON.stringify(magic)}`);
  const version = v.getUint16(4, true);
  const rec = v.getUint16(6, true);
  if (rec < MIN_RECORD) throw new SnapshotError(`record size ${rec} below ${MIN_RECORD}`);
  const n = v.getUint32(8, true);
  const generatedAt = Number(v.getBigInt64(16, true));
  const dec = new TextDecoder();
  const records: SnapshotRecord[] = new Array(n);
  let o = HEADER;
  for (let i = 0; i < n; i++) {
    if (o + rec + 1 > buf.byteLength) throw new SnapshotError(`record ${i} truncated`);
    const len = v.getUint8(o + rec);
    if (o + rec + 1 + len > buf.byteLength) throw new SnapshotError(`record ${i} id truncated`);
    records[i] = {
      lat: v.getInt32(o, true) / 1e7,
      lng: v.getInt32(o + 4, true) / 1e7,
      time: Number(v.getBigInt64(o + 8, true)),
      speed: v.getUint16(o + 16, true) / 100,
      direction: v.getUint16(o + 18, true) / 100,
      altitude: v.getInt16(o + 20, true),
      battery: v.getInt8(o + 22),
      signal: v.getInt8(o + 23),
      msId: dec.decode(new Uint8Array(buf, o + rec + 1, len)),
    };
    o += rec + 1 + len;
  }
  return { version, generatedAt, records };
}

/** Encodes records the way the server does (tests and the map benchmark use it). */
export function encodeGpsBin(records: SnapshotRecord[], generatedAt: number, recordSize = MIN_RECORD): ArrayBuffer {
  const enc = new TextEncoder();
  const ids = records.map((r) => enc.encode(r.msId));
  const size = HEADER + records.reduce((s, _r, i) => s + recordSize + 1 + ids[i]!.length, 0);
  const buf = new ArrayBuffer(size);
  const v = new DataView(buf);
  [...MAGIC].forEach((c, i) => v.setUint8(i, c.charCodeAt(0)));
  v.setUint16(4, 1, true);
  v.setUint16(6, recordSize, true);
  v.setUint32(8, records.length, true);
  v.setBigInt64(16, BigInt(generatedAt), true);
  let o = HEADER;
  records.forEach((r, i) => {
    v.setInt32(o, Math.round(r.lat * 1e7), true);
    v.setInt32(o + 4, Math.round(r.lng * 1e7), true);
    v.setBigInt64(o + 8, BigInt(r.time), true);
    v.setUint16(o + 16, Math.round(r.speed * 100), true);
    v.setUint16(o + 18, Math.round(r.direction * 100), true);
    v.setInt16(o + 20, r.altitude, true);
    v.setInt8(o + 22, r.battery);
    v.setInt8(o + 23, r.signal);
    v.setUint8(o + recordSize, ids[i]!.length);
    new Uint8Array(buf, o + recordSize + 1, ids[i]!.length).set(ids[i]!);
    o += recordSize + 1 + ids[i]!.length;
  });
  return buf;
}
