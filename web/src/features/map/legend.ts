// The monitoring map's legend: what each marker colour and ring means, drawn from the colours the terminal layer
// paints with (web/src/map/terminalFeatures.ts), so the legend cannot drift from the map.
import { CLUSTER_COLOR, STALE_RING_COLOR, STATE_COLORS, TERM_STATES } from '../../map/terminalFeatures';

/** How an entry's swatch is drawn: a filled dot (a state), a ring around a dot (an online one), or a cluster bubble. */
export type Swatch = { kind: 'dot'; fill: string } | { kind: 'ring'; fill: string; ring: string } | { kind: 'cluster'; fill: string };

export interface LegendEntry {
  key: string;
  /** The i18n key (namespace map) of the entry's text. */
  label: string;
  swatch: Swatch;
}

/** Any group's colour stands for "the group's colour" in the legend (groups pick their own). */
const GROUP_SAMPLE = '#fa8c16';

/** The legend's entries: the marker states most urgent first, then the group ring, the stale ring and a cluster. */
export function legendEntries(): LegendEntry[] {
  return [
    ...TERM_STATES.map((s): LegendEntry => ({ key: s, label: `state.${s}`, swatch: { kind: 'dot', fill: STATE_COLORS[s] } })),
    { key: 'group', label: 'legend.group', swatch: { kind: 'ring', fill: STATE_COLORS.online, ring: GROUP_SAMPLE } },
    { key: 'stale', label: 'legend.stale', swatch: { kind: 'ring', fill: STATE_COLORS.online, ring: STALE_RING_COLOR } },
    { key: 'cluster', label: 'legend.cluster', swatch: { kind: 'cluster', fill: CLUSTER_COLOR } },
  ];
}
