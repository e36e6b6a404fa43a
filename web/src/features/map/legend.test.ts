// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { legendEntries } from './legend';
import { CLUSTER_COLOR, STALE_RING_COLOR, STATE_COLORS } from '../../map/terminalFeatures';
import en from './i18n/en-US.json';

describe('legendEntries', () => {
  const entries = legendEntries();

  it('shows every marker state in the colour the map paints it, most urgent first', () => {
    const dots = entries.filter((e) => e.swatch.kind === 'dot');
    expect(dots.map((e) => e.key)).toEqual(['sos', 'talking', 'online', 'offline']);
    for (const e of dots) expect(e.swatch).toEqual({ kind: 'dot', fill: STATE_COLORS[e.key as keyof typeof STATE_COLORS] });
    expect(Object.keys(STATE_COLORS).sort()).toEqual(dots.map((e) => e.key).sort());
  });

  it('explains the rings and the cluster bubble', () => {
    expect(entries.find((e) => e.key === 'stale')?.swatch).toEqual({ kind: 'ring', fill: STATE_COLORS.online, ring: STALE_RING_COLOR });
    expect(entries.find((e) => e.key === 'cluster')?.swatch).toEqual({ kind: 'cluster', fill: CLUSTER_COLOR });
    expect(entries.find((e) => e.key === 'group')?.swatch.kind).toBe('ring');
  });

  it('has a text for every entry', () => {
    const lookup = (key: string) => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], en);
    for (const e of entries) expect(typeof lookup(e.label), e.label).toBe('string');
  });
});
