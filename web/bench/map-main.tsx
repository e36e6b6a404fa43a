// Benchmark page: the real MapView and TerminalsLayer with a synthetic fleet, driven by map.bench.mjs in real
// Chromium. Positions arrive as the server sends them: a `gps` batch every 250 ms (docs/geo.md), applied through
// the dispatch store exactly as the console does.
import { createRoot } from 'react-dom/client';
import { initI18n } from '../src/i18n';
import { MapView } from '../src/map/MapView';
import { TerminalsLayer } from '../src/map/layers/TerminalsLayer';
import { enqueue, loadSnapshot, useDirectory } from '../src/shared/directory/store';
import type { GroupDto, Terminal } from '../src/shared/directory/model';

const CENTER = { lat: 41.01, lng: 28.97 };
const frame = () => new Promise<number>((r) => requestAnimationFrame(r));

function fleet(n: number): GroupDto[] {
  const groups: GroupDto[] = [];
  const per = Math.ceil(n / 100);
  const now = Date.now();
  for (let g = 0; g < 100; g++) {
    const msList: Terminal[] = [];
    for (let i = 0; i < per && g * per + i < n; i++) {
      const k = g * per + i;
      msList.push({
        cid: String(30_000_000 + k),
        name: `Unit ${k}`,
        type: '10',
        online: k % 5 ? '1' : '0',
        grp: `g${g}`,
        lat: CENTER.lat + (Math.random() - 0.5) * 0.5,
        lng: CENTER.lng + (Math.random() - 0.5) * 0.7,
        speed: 5,
        lastGps: now - (k % 17 === 0 ? 3_600_000 : 1000),
      });
    }
    groups.push({ gid: `g${g}`, fid: '0', name: `Team ${g}`, kind: 'fixed', color: g % 3 ? '' : '#ff7a00', msList });
  }
  return groups;
}

declare global {
  interface Window {
    mapBench: {
      mount: (terminals: number, zoom: number) => Promise<{ ms: number; count: number }>;
      updates: (perSecond: number, seconds: number) => Promise<{ frames: number; positions: number; seconds: number; avgFrameMs: number; p95FrameMs: number; longFrames: number; flushes: number }>;
    };
  }
}

window.mapBench = {
  async mount(terminals, zoom) {
    await initI18n('en-US');
    const t0 = performance.now();
    loadSnapshot(fleet(terminals));
    createRoot(document.getElementById('root')!).render(
      <MapView provider="osm" language="en-US" theme="normal" initialCenter={[CENTER.lng, CENTER.lat]} initialZoom={zoom}>
        <TerminalsLayer onSelect={() => {}} labels={{ more: (k) => `+${k}`, state: (s) => s }} />
      </MapView>,
    );
    const layer = () => document.querySelector<HTMLElement>('[data-testid=terminal-layer]');
    while (!layer() || Number(layer()!.dataset.count) < terminals * 0.99) await frame();
    const map = (document.querySelector('[data-testid=map]') as HTMLElement & { __map: import('maplibre-gl').Map }).__map;
    await new Promise<void>((r) => (map.loaded() && !map.isMoving() ? r() : map.once('idle', () => r())));
    return { ms: performance.now() - t0, count: Number(layer()!.dataset.count) };
  },

  async updates(perSecond, seconds) {
    const ids = Object.keys(useDirectory.getState().terminals);
    const batchMs = 250;
    const perBatch = Math.round((perSecond * batchMs) / 1000);
    const layer = document.querySelector<HTMLElement>('[data-testid=terminal-layer]')!;
    const flushes0 = Number(layer.dataset.flushes);
    let positions = 0;
    const intervals: number[] = [];
    let running = true;
    let last = performance.now();
    const count = (now: number) => {
      intervals.push(now - last);
      last = now;
      if (running) requestAnimationFrame(count);
    };
    requestAnimationFrame((now) => {
      last = now;
      requestAnimationFrame(count);
    });
    const timer = setInterval(() => {
      const terminals = useDirectory.getState().terminals;
      const time = Date.now();
      for (let i = 0; i < perBatch; i++) {
        const cid = ids[(Math.random() * ids.length) | 0]!;
        const t = terminals[cid]!;
        // The same path as a `gps` socket event (useLiveDirectory): terminal.status-shaped items.
        enqueue({ type: 'terminal.status', data: { msId: cid, lat: t.lat! + (Math.random() - 0.5) * 0.0004, lng: t.lng! + (Math.random() - 0.5) * 0.0004, speed: 4, time } });
        positions++;
      }
    }, batchMs);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    clearInterval(timer);
    running = false;
    const sorted = intervals.slice().sort((a, b) => a - b);
    const avg = intervals.reduce((s, x) => s + x, 0) / Math.max(1, intervals.length);
    return {
      frames: intervals.length,
      positions,
      seconds,
      avgFrameMs: avg,
      p95FrameMs: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
      longFrames: intervals.filter((x) => x > 50).length,
      flushes: Number(layer.dataset.flushes) - flushes0,
    };
  },
};
