// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Terminal } from '../shared/directory/model';
import { isStale, STALE_MS, TerminalDiffer, terminalState, toFeature, type FeatureContext } from './terminalFeatures';

const now = 1_800_000_000_000;
const term = (cid: string, over: Partial<Terminal> = {}): Terminal => ({ cid, name: `T${cid}`, type: '10', online: '1', grp: 'g1', lat: 41, lng: 29, lastGps: now - 1000, ...over });
const ctx = (over: Partial<FeatureContext> = {}): FeatureContext => ({
  talking: new Set(),
  sos: {},
  groupColor: (g) => (g === 'g1' ? '#ff0000' : undefined),
  toMap: (lng, lat) => [lng, lat],
  now,
  ...over,
});

describe('terminal markers', () => {
  it('state colours: SOS over talking over online over offline', () => {
    const t = term('1');
    expect(terminalState(t, new Set(), {})).toBe('online');
    expect(terminalState({ ...t, online: '0' }, new Set(), {})).toBe('offline');
    expect(terminalState(t, new Set(['1']), {})).toBe('talking');
    expect(terminalState(t, new Set(['1']), { 1: {} })).toBe('sos');
  });
  it('marks stale positions', () => {
    expect(isStale(term('1'), now)).toBe(false);
    expect(isStale(term('1', { lastGps: now - STALE_MS - 1 }), now)).toBe(true);
    expect(isStale(term('1', { lastGps: undefined }), now)).toBe(true);
  });
  it('no position, no marker; group colour and avatar carried', () => {
    expect(toFeature(term('1', { lat: undefined }), ctx())).toBeNull();
    const f = toFeature(term('1', { avatar: 'data:image/png;base64,AAAA' }), ctx())!;
    expect(f.properties).toMatchObject({ cid: '1', state: 'online', stale: 0, color: '#ff0000' });
    expect(f.properties.icon).toMatch(/^tf-av-/);
  });
});

describe('TerminalDiffer', () => {
  it('sends only what changed, and removes the excluded (selected) terminal', () => {
    const d = new TerminalDiffer();
    const terminals: Record<string, Terminal> = { 1: term('1'), 2: term('2'), 3: term('3', { lat: undefined }) };
    expect(d.full(terminals, ctx())).toHaveLength(2);
    expect(d.diff(terminals, ctx(), false)).toBeNull();
    terminals[2] = { ...terminals[2]!, lat: 41.01 };
    const diff = d.diff(terminals, ctx(), false)!;
    expect(diff.update?.map((u) => u.id)).toEqual(['2']);
    expect(diff.update?.[0]?.newGeometry).toEqual({ type: 'Point', coordinates: [29, 41.01] });
    terminals[3] = { ...terminals[3]!, lat: 41.02 };
    expect(d.diff(terminals, ctx(), false)!.add?.map((f) => f.id ?? f.properties?.cid)).toEqual(['3']);
    expect(d.diff(terminals, ctx(), false, '1')!.remove).toEqual(['1']);
    expect(d.diff(terminals, ctx(), false)!.add?.map((f) => f.properties?.cid)).toEqual(['1']);
    delete terminals[3];
    expect(d.diff(terminals, ctx(), false)!.remove).toEqual(['3']);
  });
  it('re-evaluates every terminal when the live state changes', () => {
    const d = new TerminalDiffer();
    const terminals = { 1: term('1'), 2: term('2') };
    d.full(terminals, ctx());
    const diff = d.diff(terminals, ctx({ talking: new Set(['2']) }), true)!;
    expect(diff.update?.map((u) => u.id)).toEqual(['2']);
    expect(diff.update?.[0]?.addOrUpdateProperties).toContainEqual({ key: 'state', value: 'talking' });
  });
});
