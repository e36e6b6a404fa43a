// Live terminal markers (spec §2): a clustered source kept in step with the directory store by diffs at most every
// 150 ms (spec §9 move throttle); cluster tooltips list their terminals; the selected terminal lives in a source of
// its own, never clustered, and glides between fixes.
import { useEffect, useRef, useState } from 'react';
import type { GeoJSONSource, MapLayerMouseEvent, MapMouseEvent } from 'maplibre-gl';
import type { Feature, Point } from 'geojson';
import { useDirectory } from '../../shared/directory/store';
import { currentTalkers } from '../../shared/geo/live';
import { openSosByTerminal, useAlarms } from '../../shared/alarms/store';
import { useVoice } from '../../shared/voice/store';
import { useMapApi } from '../context';
import { arrowImage, avatarImage, countImage, labelImage } from '../images';
import { gateSourceRepaints } from '../repaintGate';
import { avatarImageId, CLUSTER_COLOR, STALE_RING_COLOR, STATE_COLORS, TerminalDiffer, toFeature, type FeatureContext, type TermProps } from '../terminalFeatures';

export const MOVE_THROTTLE_MS = 150;
/** From this zoom (streets) every terminal's name is drawn, overlapping others if it must. */
export const LABELS_OVERLAP_ZOOM = 16;
const STALE_CHECK_MS = 30_000;
const TOOLTIP_MAX = 12;
/**
 * The cluster labels drawn when the layer starts: 2–999 and the abbreviations of larger counts (the clustering
 * library writes 1,234 as "1.2k" and 12,345 as "12k"); anything else is drawn when first seen.
 */
export function predrawnCounts(): string[] {
  const out: string[] = [];
  for (let n = 2; n < 1000; n++) out.push(String(n));
  for (let k = 10; k < 100; k++) out.push(`${k % 10 ? (k / 10).toFixed(1) : k / 10}k`);
  for (let k = 10; k <= 100; k++) out.push(`${k}k`);
  return out;
}

const SRC = 'terminals';
const SEL = 'terminal-selected';
export const TERMINAL_LAYERS = ['terminals-cluster', 'terminals-point', 'terminal-selected-point'];

interface Tip {
  x: number;
  y: number;
  title?: string;
  items: { cid: string; name: string; state: string }[];
  more: number;
}

export interface TerminalsLayerProps {
  selected?: string;
  onSelect: (cid: string | undefined) => void;
  /** Hides terminals (e.g. offline ones) without touching the store. */
  filter?: (cid: string) => boolean;
  dark?: boolean;
  visible?: boolean;
  /** Off while something is being drawn: clicks belong to the drawing, not to markers and clusters. */
  interactive?: boolean;
  labels: { more: (n: number) => string; state: (s: string) => string };
}

const stateColor = ['match', ['get', 'state'], 'sos', STATE_COLORS.sos, 'talking', STATE_COLORS.talking, 'online', STATE_COLORS.online, STATE_COLORS.offline] as unknown as string;

export function TerminalsLayer({ selected, onSelect, filter, dark = false, visible = true, interactive = true, labels }: TerminalsLayerProps) {
  const { map, toMap, projection, registerImages } = useMapApi();
  const [tip, setTip] = useState<Tip | null>(null);
  // What the layer holds, for tests and the benchmark: written to the element, not kept in state, so a source update
  // does not render the component again.
  const probe = useRef<HTMLSpanElement>(null);
  const sel = useRef(selected);
  sel.current = selected;
  const onSel = useRef(onSelect);
  onSel.current = onSelect;
  const filterRef = useRef(filter);
  filterRef.current = filter;
  const labelsRef = useRef(labels);
  labelsRef.current = labels;
  const interactiveRef = useRef(interactive);
  interactiveRef.current = interactive;

  // Images drawn on demand.
  useEffect(() => {
    const avatars = new Map<string, string>();
    const offs = [
      registerImages('tf-count-', (id) => countImage(id.slice('tf-count-'.length))),
      registerImages('tf-label-', (id) => labelImage(id.slice('tf-label-'.length), dark)),
      registerImages('tf-arrow', () => arrowImage()),
      registerImages('tf-av-', (id) => (avatars.has(id) ? avatarImage(avatars.get(id)!) : null)),
    ];
    // Cluster counts drawn up front: an image added while the map runs makes it lay out every symbol tile that
    // uses images again, and cluster counts change with every position update.
    const warm = () => {
      if (!map.getStyle()) return;
      for (const text of predrawnCounts()) {
        const id = `tf-count-${text}`;
        if (!map.hasImage(id)) map.addImage(id, countImage(text), { pixelRatio: 2 });
      }
    };
    warm();
    const note = () => {
      for (const t of Object.values(useDirectory.getState().terminals)) if (t.avatar) avatars.set(avatarImageId(t.avatar), t.avatar);
    };
    note();
    const unsub = useDirectory.subscribe((s, p) => s.structure !== p.structure && note());
    return () => {
      offs.forEach((o) => o());
      unsub();
    };
  }, [map, registerImages, dark]);

  // Sources and layers.
  useEffect(() => {
    map.addSource(SRC, {
      type: 'geojson',
      data: { type: 'FeatureCollection', features: [] },
      cluster: true,
      clusterRadius: 50,
      clusterMaxZoom: 15,
      promoteId: 'cid',
      clusterProperties: { sos: ['+', ['case', ['==', ['get', 'state'], 'sos'], 1, 0]], talking: ['+', ['case', ['==', ['get', 'state'], 'talking'], 1, 0]] },
    });
    map.addSource(SEL, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({
      id: 'terminals-cluster',
      type: 'circle',
      source: SRC,
      filter: ['has', 'point_count'],
      paint: {
        'circle-color': ['case', ['>', ['get', 'sos'], 0], STATE_COLORS.sos, ['>', ['get', 'talking'], 0], STATE_COLORS.talking, CLUSTER_COLOR],
        'circle-radius': ['step', ['get', 'point_count'], 14, 10, 17, 100, 21, 1000, 26],
        'circle-opacity': 0.85,
        'circle-stroke-width': 3,
        'circle-stroke-color': 'rgba(255,255,255,0.7)',
      },
    });
    map.addLayer({
      id: 'terminals-cluster-count',
      type: 'symbol',
      source: SRC,
      filter: ['has', 'point_count'],
      layout: { 'icon-image': ['concat', 'tf-count-', ['get', 'point_count_abbreviated']], 'icon-allow-overlap': true, 'icon-ignore-placement': true },
    });
    map.addLayer({
      id: 'terminals-stale-ring',
      type: 'circle',
      source: SRC,
      filter: ['all', ['!', ['has', 'point_count']], ['==', ['get', 'stale'], 1]],
      paint: { 'circle-radius': 11, 'circle-color': 'rgba(0,0,0,0)', 'circle-stroke-width': 2, 'circle-stroke-color': STALE_RING_COLOR, 'circle-stroke-opacity': 0.9 },
    });
    map.addLayer({
      id: 'terminals-point',
      type: 'circle',
      source: SRC,
      filter: ['!', ['has', 'point_count']],
      paint: {
        'circle-radius': 7,
        'circle-color': stateColor,
        'circle-opacity': ['case', ['==', ['get', 'stale'], 1], 0.45, 1],
        'circle-stroke-width': 2.5,
        'circle-stroke-color': ['case', ['!=', ['get', 'color'], ''], ['get', 'color'], '#ffffff'],
      },
    });
    map.addLayer({
      id: 'terminals-avatar',
      type: 'symbol',
      source: SRC,
      minzoom: 12,
      filter: ['all', ['!', ['has', 'point_count']], ['!=', ['get', 'icon'], '']],
      // Avatars and heading arrows never push a name off the map (ignore-placement): the name says more.
      layout: { 'icon-image': ['get', 'icon'], 'icon-allow-overlap': true, 'icon-ignore-placement': true, 'icon-offset': [0, -16] },
    });
    map.addLayer({
      id: 'terminals-heading',
      type: 'symbol',
      source: SRC,
      minzoom: 13,
      filter: ['all', ['!', ['has', 'point_count']], ['==', ['get', 'moving'], 1]],
      layout: { 'icon-image': 'tf-arrow', 'icon-rotate': ['get', 'dir'], 'icon-rotation-alignment': 'map', 'icon-allow-overlap': true, 'icon-ignore-placement': true, 'icon-offset': [0, -12], 'icon-size': 0.8 },
    });
    map.addLayer({
      id: 'terminals-label',
      type: 'symbol',
      source: SRC,
      minzoom: 14,
      filter: ['!', ['has', 'point_count']],
      // Names from zoom 14. At 14–15 one name that would cover another is left out, the most urgent state winning
      // (SOS, then talking, online, offline); from street zoom 16 every name is drawn, overlapping if it must, since
      // a dispatcher zoomed in that far is looking for one unit by name (issue 33: names went missing there).
      layout: {
        'icon-image': ['concat', 'tf-label-', ['get', 'name']],
        'icon-anchor': 'left',
        'icon-offset': [10, 0],
        'icon-padding': 0,
        'icon-overlap': ['step', ['zoom'], 'never', LABELS_OVERLAP_ZOOM, 'always'],
        'symbol-sort-key': ['match', ['get', 'state'], 'sos', 0, 'talking', 1, 'online', 2, 3],
      },
    });
    map.addLayer({
      id: 'terminal-selected-halo',
      type: 'circle',
      source: SEL,
      paint: { 'circle-radius': 18, 'circle-color': STATE_COLORS.talking, 'circle-opacity': 0.18, 'circle-stroke-width': 2, 'circle-stroke-color': STATE_COLORS.talking },
    });
    map.addLayer({
      id: 'terminal-selected-point',
      type: 'circle',
      source: SEL,
      paint: { 'circle-radius': 9, 'circle-color': stateColor, 'circle-stroke-width': 3, 'circle-stroke-color': '#ffffff' },
    });
    map.addLayer({
      id: 'terminal-selected-label',
      type: 'symbol',
      source: SEL,
      layout: { 'icon-image': ['concat', 'tf-label-', ['get', 'name']], 'icon-anchor': 'left', 'icon-offset': [14, 0], 'icon-allow-overlap': true },
    });
    // One repaint per update of the clustered source, not one per arriving tile (see repaintGate.ts).
    const ungate = gateSourceRepaints(map, SRC);
    return () => {
      ungate();
      for (const id of ['terminal-selected-label', 'terminal-selected-point', 'terminal-selected-halo', 'terminals-label', 'terminals-heading', 'terminals-avatar', 'terminals-point', 'terminals-stale-ring', 'terminals-cluster-count', 'terminals-cluster'])
        if (map.getLayer(id)) map.removeLayer(id);
      if (map.getSource(SEL)) map.removeSource(SEL);
      if (map.getSource(SRC)) map.removeSource(SRC);
    };
  }, [map]);

  useEffect(() => {
    for (const id of ['terminals-cluster', 'terminals-cluster-count', 'terminals-stale-ring', 'terminals-point', 'terminals-avatar', 'terminals-heading', 'terminals-label', 'terminal-selected-halo', 'terminal-selected-point', 'terminal-selected-label'])
      if (map.getLayer(id)) map.setLayoutProperty(id, 'visibility', visible ? 'visible' : 'none');
  }, [map, visible]);

  // Keep the sources in step with the stores.
  useEffect(() => {
    const src = map.getSource(SRC) as GeoJSONSource;
    const selSrc = map.getSource(SEL) as GeoJSONSource;
    const differ = new TerminalDiffer();
    let all = true;
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastSelected: string | undefined;
    let anim: { from: [number, number]; to: [number, number]; t0: number; dur: number; props: TermProps } | undefined;
    let raf = 0;
    let lastSelFix = 0;
    const groupColors = () => {
      const groups = useDirectory.getState().groups;
      return (gid: string) => groups[gid]?.color || undefined;
    };
    const context = (): FeatureContext => {
      return { talking: currentTalkers(useVoice.getState().talkers), sos: openSosByTerminal(), groupColor: groupColors(), toMap, now: Date.now() };
    };
    const visibleTerminals = () => {
      const terminals = useDirectory.getState().terminals;
      const f = filterRef.current;
      if (!f) return terminals;
      const out: typeof terminals = {};
      for (const cid in terminals) if (f(cid)) out[cid] = terminals[cid]!;
      return out;
    };

    const drawSelected = (feature: Feature<Point, TermProps> | null) => {
      const now = performance.now();
      if (!feature) {
        anim = undefined;
        void selSrc.setData({ type: 'FeatureCollection', features: [] });
        return;
      }
      const to = feature.geometry.coordinates as [number, number];
      const prev = anim ? frameOf(anim, now) : undefined;
      // Glide over the time since the previous fix (server batches arrive every 250 ms), at most 1 s.
      const dur = Math.min(1000, Math.max(MOVE_THROTTLE_MS, now - lastSelFix));
      lastSelFix = now;
      anim = { from: prev ?? to, to, t0: now, dur: prev ? dur : 0, props: feature.properties };
      if (!raf) raf = requestAnimationFrame(step);
    };
    const frameOf = (a: NonNullable<typeof anim>, now: number): [number, number] => {
      const k = a.dur ? Math.min(1, (now - a.t0) / a.dur) : 1;
      return [a.from[0] + (a.to[0] - a.from[0]) * k, a.from[1] + (a.to[1] - a.from[1]) * k];
    };
    const step = () => {
      raf = 0;
      if (!anim) return;
      const now = performance.now();
      const pos = frameOf(anim, now);
      void selSrc.setData({ type: 'FeatureCollection', features: [{ type: 'Feature', id: anim.props.cid, geometry: { type: 'Point', coordinates: pos }, properties: anim.props }] });
      if (now - anim.t0 < anim.dur) raf = requestAnimationFrame(step);
    };

    const flush = () => {
      timer = undefined;
      last = performance.now();
      const terminals = visibleTerminals();
      const c = context();
      const selectedCid = sel.current && terminals[sel.current] ? sel.current : undefined;
      if (all && differ.size === 0) {
        void src.setData({ type: 'FeatureCollection', features: differ.full(terminals, c, selectedCid) });
      } else {
        const diff = differ.diff(terminals, c, all, selectedCid);
        if (diff) void src.updateData(diff);
      }
      all = false;
      const selT = selectedCid ? terminals[selectedCid] : undefined;
      if (selectedCid !== lastSelected || selT) {
        const f = selT ? toFeature(selT, c) : null;
        const key = f ? `${f.geometry.coordinates.join()}|${f.properties.state}|${f.properties.name}` : '';
        if (selectedCid !== lastSelected || key !== (anim ? `${anim.to.join()}|${anim.props.state}|${anim.props.name}` : '')) {
          if (selectedCid !== lastSelected) anim = undefined;
          drawSelected(f);
        }
      }
      lastSelected = selectedCid;
      const el = probe.current;
      if (el) {
        el.dataset.count = String(differ.size + (selectedCid ? 1 : 0));
        el.dataset.flushes = String(Number(el.dataset.flushes) + 1);
      }
    };
    const schedule = (everything = false) => {
      all ||= everything;
      if (timer) return;
      timer = setTimeout(flush, Math.max(0, MOVE_THROTTLE_MS - (performance.now() - last)));
    };
    const unsubDir = useDirectory.subscribe((s, p) => schedule(s.structure !== p.structure));
    const unsubLive = useAlarms.subscribe((s, p) => s.sos !== p.sos && schedule(true));
    const unsubVoice = useVoice.subscribe((s, p) => s.talkers !== p.talkers && schedule(true));
    const staleTimer = setInterval(() => schedule(true), STALE_CHECK_MS);
    (map.getContainer() as HTMLElement & { __refreshTerminals?: (everything?: boolean) => void }).__refreshTerminals = schedule;
    all = true;
    differ.full({}, context());
    schedule(true);
    return () => {
      unsubDir();
      unsubLive();
      unsubVoice();
      clearTimeout(timer);
      clearInterval(staleTimer);
      cancelAnimationFrame(raf);
    };
  }, [map, toMap, projection]);

  // Selection or filter changed: refresh at once.
  useEffect(() => {
    (map.getContainer() as HTMLElement & { __refreshTerminals?: (everything?: boolean) => void }).__refreshTerminals?.(true);
  }, [map, selected, filter]);

  // Interaction: click selects, clusters zoom in, hover shows a tooltip.
  useEffect(() => {
    const src = () => map.getSource(SRC) as GeoJSONSource;
    const canvas = map.getCanvas();
    let hoverCluster: number | undefined;
    const onPointClick = (e: MapLayerMouseEvent) => {
      if (!interactiveRef.current) return;
      const cid = e.features?.[0]?.properties?.cid as string | undefined;
      if (cid) {
        e.preventDefault();
        onSel.current(cid);
      }
    };
    const onClusterClick = async (e: MapLayerMouseEvent) => {
      if (!interactiveRef.current) return;
      const f = e.features?.[0];
      if (!f) return;
      e.preventDefault();
      const zoom = await src().getClusterExpansionZoom(f.properties!.cluster_id as number);
      map.easeTo({ center: (f.geometry as Point).coordinates as [number, number], zoom: Math.min(zoom, 18) });
    };
    // Cluster ids change whenever the source regroups (every position update), so a leaves request can name a
    // cluster that is already gone: then it asks again for whatever cluster is under the pointer now.
    let pointer: { x: number; y: number } | undefined;
    const showCluster = async (at: { x: number; y: number }, attempt = 0): Promise<void> => {
      if (pointer !== at) return;
      const f = map.getLayer('terminals-cluster') ? map.queryRenderedFeatures([at.x, at.y], { layers: ['terminals-cluster'] })[0] : undefined;
      if (!f) return;
      const id = f.properties!.cluster_id as number;
      const total = f.properties!.point_count as number;
      if (hoverCluster === id && attempt === 0) {
        setTip((t) => (t ? { ...t, ...at } : t));
        return;
      }
      hoverCluster = id;
      const leaves = await src()
        .getClusterLeaves(id, TOOLTIP_MAX, 0)
        .catch(() => null);
      if (pointer !== at) return;
      if (!leaves?.length) {
        hoverCluster = undefined;
        if (attempt < 8) setTimeout(() => void showCluster(at, attempt + 1), 120);
        return;
      }
      setTip({
        ...at,
        items: leaves.map((l) => ({ cid: String(l.properties?.cid), name: String(l.properties?.name), state: String(l.properties?.state) })),
        more: Math.max(0, total - leaves.length),
      });
    };
    const onClusterMove = (e: MapLayerMouseEvent) => {
      canvas.style.cursor = 'pointer';
      pointer = { x: e.point.x, y: e.point.y };
      void showCluster(pointer);
    };
    const onPointMove = (e: MapLayerMouseEvent) => {
      const p = e.features?.[0]?.properties;
      if (!p) return;
      canvas.style.cursor = 'pointer';
      hoverCluster = undefined;
      pointer = undefined;
      setTip({ x: e.point.x, y: e.point.y, items: [{ cid: String(p.cid), name: String(p.name), state: String(p.state) }], more: 0 });
    };
    const onLeave = () => {
      canvas.style.cursor = '';
      hoverCluster = undefined;
      pointer = undefined;
      setTip(null);
    };
    const onMapClick = (e: MapMouseEvent) => {
      if (e.defaultPrevented) return;
      const hits = map.queryRenderedFeatures(e.point, { layers: TERMINAL_LAYERS.filter((l) => map.getLayer(l)) });
      if (!hits.length) setTip(null);
    };
    // The point and the selected terminal's point answer alike; every handler comes off with the layer.
    const handlers: [type: 'click' | 'mousemove' | 'mouseleave', layer: string, fn: (e: MapLayerMouseEvent) => void][] = [
      ['click', 'terminals-point', onPointClick],
      ['click', 'terminal-selected-point', onPointClick],
      ['click', 'terminals-cluster', onClusterClick],
      ['mousemove', 'terminals-cluster', onClusterMove],
      ['mousemove', 'terminals-point', onPointMove],
      ['mousemove', 'terminal-selected-point', onPointMove],
      ['mouseleave', 'terminals-cluster', onLeave],
      ['mouseleave', 'terminals-point', onLeave],
      ['mouseleave', 'terminal-selected-point', onLeave],
    ];
    handlers.forEach(([type, layer, fn]) => map.on(type, layer, fn));
    map.on('click', onMapClick);
    return () => {
      handlers.forEach(([type, layer, fn]) => map.off(type, layer, fn));
      map.off('click', onMapClick);
    };
  }, [map]);

  return (
    <>
      <span hidden ref={probe} data-testid="terminal-layer" data-count="0" data-flushes="0" data-selected={selected ?? ''} />
      {tip && (
        <div className="map-tooltip" style={{ left: tip.x, top: tip.y }} data-testid="cluster-tooltip" data-total={tip.items.length + tip.more}>
          <ul>
            {tip.items.map((i) => (
              <li key={i.cid} data-cid={i.cid}>
                <span className="dot" style={{ background: STATE_COLORS[i.state as keyof typeof STATE_COLORS] ?? STATE_COLORS.offline }} />
                {i.name} <span style={{ opacity: 0.7 }}>· {labels.state(i.state)}</span>
              </li>
            ))}
          </ul>
          {tip.more > 0 && <div style={{ opacity: 0.8 }}>{labels.more(tip.more)}</div>}
        </div>
      )}
    </>
  );
}
