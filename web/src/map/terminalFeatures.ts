// Terminal markers as GeoJSON features (pure, tested): state colour (SOS > talking > online > offline), stale
// positions, group colour ring, avatar icon, heading; and the diff that keeps a clustered source in step with the
// directory store without resending 10,000 features.
import type { Feature, Point } from 'geojson';
import type { GeoJSONSourceDiff } from 'maplibre-gl';
import type { Terminal } from '../shared/directory/model';
import { hashId } from './images';
import { isStaleFix, POSITION_STALE_MS } from '../shared/geo/fixAge';

export type TermState = 'sos' | 'talking' | 'online' | 'offline';
export const STATE_COLORS: Record<TermState, string> = { online: '#2fb344', offline: '#8c8c8c', talking: '#1677ff', sos: '#f5222d' };
/** The marker's states, most urgent first (the order the marker colour is chosen in, and the legend's order). */
export const TERM_STATES: readonly TermState[] = ['sos', 'talking', 'online', 'offline'];
/** A cluster with neither SOS nor talking terminals in it (one with them takes their colour). */
export const CLUSTER_COLOR = '#3b7dd8';
/** The ring around a marker whose position is stale. */
export const STALE_RING_COLOR = '#9e9e9e';
/** A position older than this is drawn as stale (faded, with a grey ring): the console's one threshold. */
export const STALE_MS = POSITION_STALE_MS;

export interface TermProps {
  cid: string;
  name: string;
  state: TermState;
  stale: 0 | 1;
  /** Group colour ('' when the group has none). */
  color: string;
  /** Style image id of the avatar ('' when none). */
  icon: string;
  dir: number;
  moving: 0 | 1;
}

export interface FeatureContext {
  talking: ReadonlySet<string>;
  sos: Readonly<Record<string, unknown>>;
  groupColor: (gid: string) => string | undefined;
  toMap: (lng: number, lat: number) => [number, number];
  now: number;
}

type WithHeading = Terminal & { direction?: number };

export function hasPosition(t: Terminal): boolean {
  return typeof t.lat === 'number' && typeof t.lng === 'number' && Number.isFinite(t.lat) && Number.isFinite(t.lng) && !(t.lat === 0 && t.lng === 0);
}

export function terminalState(t: Terminal, talking: ReadonlySet<string>, sos: Readonly<Record<string, unknown>>): TermState {
  if (sos[t.cid]) return 'sos';
  if (talking.has(t.cid)) return 'talking';
  return t.online === '1' ? 'online' : 'offline';
}

export function isStale(t: Terminal, now: number): boolean {
  return isStaleFix(t.lastGps, now);
}

export const avatarImageId = (url: string) => `tf-av-${hashId(url)}`;

export function toFeature(t: Terminal, c: FeatureContext): Feature<Point, TermProps> | null {
  if (!hasPosition(t)) return null;
  const [lng, lat] = c.toMap(t.lng!, t.lat!);
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [lng, lat] },
    properties: {
      cid: t.cid,
      name: t.name || t.cid,
      state: terminalState(t, c.talking, c.sos),
      stale: isStale(t, c.now) ? 1 : 0,
      color: c.groupColor(t.grp) ?? '',
      icon: t.avatar ? avatarImageId(t.avatar) : '',
      dir: Math.round((t as WithHeading).direction ?? 0),
      moving: (t.speed ?? 0) > 0.5 ? 1 : 0,
    },
  };
}

const keyOf = (f: Feature<Point, TermProps>) => {
  const p = f.properties;
  return `${f.geometry.coordinates[0]},${f.geometry.coordinates[1]}|${p.name}|${p.state}|${p.stale}|${p.color}|${p.icon}|${p.dir}|${p.moving}`;
};

/**
 * Remembers what the source holds and turns the next state of the directory into a diff. The directory record is
 * keyed by numeric ids, which V8 keeps as slow dictionary elements: every lookup by id costs a string-to-index
 * conversion, and 10,000 of them per flush were most of the map's main-thread time. So the record is read once with
 * Object.values() and compared, by position, with the values of the previous flush (a changed terminal is a new
 * object); only when terminals were added or removed is every id looked at again.
 */
export class TerminalDiffer {
  private sent = new Map<string, string>();
  private last: Terminal[] = [];
  private lastExclude: string | undefined;

  /** The full collection (first load, or after a reset). */
  full(terminals: Record<string, Terminal>, c: FeatureContext, exclude?: string): Feature<Point, TermProps>[] {
    this.sent.clear();
    this.last = Object.values(terminals);
    this.lastExclude = exclude;
    const out: Feature<Point, TermProps>[] = [];
    for (const t of this.last) {
      if (t.cid === exclude) continue;
      const f = toFeature(t, c);
      if (!f) continue;
      this.sent.set(t.cid, keyOf(f));
      out.push(f);
    }
    return out;
  }

  diff(terminals: Record<string, Terminal>, c: FeatureContext, all: boolean, exclude?: string): GeoJSONSourceDiff | null {
    const now = Object.values(terminals);
    const prev = this.last;
    const sameShape = now.length === prev.length;
    const changed: Terminal[] = [];
    let reshaped = !sameShape;
    if (!reshaped) {
      for (let i = 0; i < now.length; i++) {
        const t = now[i]!;
        if (t === prev[i]) {
          if (all) changed.push(t);
          continue;
        }
        if (t.cid !== prev[i]!.cid) {
          reshaped = true;
          break;
        }
        changed.push(t);
      }
    }
    if (reshaped) {
      changed.length = 0;
      changed.push(...now);
    } else if (!all && exclude !== this.lastExclude) {
      for (const cid of [exclude, this.lastExclude]) if (cid && terminals[cid]) changed.push(terminals[cid]!);
    }
    this.last = now;
    this.lastExclude = exclude;

    const add: Feature<Point, TermProps>[] = [];
    const update: NonNullable<GeoJSONSourceDiff['update']> = [];
    const remove: string[] = [];
    for (const t of changed) {
      const cid = t.cid;
      const f = cid === exclude ? null : toFeature(t, c);
      const had = this.sent.get(cid);
      if (!f) {
        if (had !== undefined) {
          remove.push(cid);
          this.sent.delete(cid);
        }
        continue;
      }
      const key = keyOf(f);
      if (had === key) continue;
      this.sent.set(cid, key);
      if (had === undefined) add.push(f);
      else
        update.push({
          id: cid,
          newGeometry: f.geometry,
          addOrUpdateProperties: Object.entries(f.properties).map(([k, value]) => ({ key: k, value })),
        });
    }
    if (reshaped) {
      const present = new Set(now.map((t) => t.cid));
      for (const cid of this.sent.keys()) {
        if (!present.has(cid)) {
          remove.push(cid);
          this.sent.delete(cid);
        }
      }
    }
    if (!add.length && !update.length && !remove.length) return null;
    return { add, update, remove };
  }

  get size(): number {
    return this.sent.size;
  }
}
