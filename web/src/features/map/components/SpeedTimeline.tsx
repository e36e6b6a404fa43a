// The speed timeline of a track (spec §2 track playback): speed over time, with the playback position; clicking or
// dragging on it scrubs.
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { TrackPoint } from '../../../shared/geo/units';
import { convertSpeed, type SpeedUnit } from '../../../shared/geo/units';

echarts.use([LineChart, GridComponent, MarkLineComponent, TooltipComponent, CanvasRenderer]);

export function SpeedTimeline({ points, unit, time, onScrub, formatTime }: { points: readonly TrackPoint[]; unit: SpeedUnit; time?: number; onScrub: (t: number) => void; formatTime: (ms: number) => string }) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts>(undefined);
  const scrub = useRef(onScrub);
  scrub.current = onScrub;

  useEffect(() => {
    const c = echarts.init(ref.current!, undefined, { renderer: 'canvas' });
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(ref.current!);
    let down = false;
    const at = (x: number, y: number) => {
      const v = c.convertFromPixel({ gridIndex: 0 }, [x, y]) as number[] | undefined;
      if (v && Number.isFinite(v[0])) scrub.current(v[0]!);
    };
    const zr = c.getZr();
    zr.on('mousedown', (e) => {
      down = true;
      at(e.offsetX, e.offsetY);
    });
    zr.on('mousemove', (e) => down && at(e.offsetX, e.offsetY));
    zr.on('mouseup', () => (down = false));
    zr.on('globalout', () => (down = false));
    return () => {
      ro.disconnect();
      c.dispose();
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(
      {
        animation: false,
        grid: { left: 40, right: 12, top: 10, bottom: 24 },
        tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => `${Number(v).toFixed(1)} ${unit}` },
        xAxis: { type: 'time', axisLabel: { formatter: (v: number) => formatTime(v).slice(-8), hideOverlap: true } },
        yAxis: { type: 'value', name: unit, nameTextStyle: { padding: [0, 0, 0, 20] }, splitNumber: 3 },
        series: [
          {
            type: 'line',
            showSymbol: false,
            sampling: 'lttb',
            areaStyle: { opacity: 0.15 },
            data: points.map((p) => [p.time, +convertSpeed(p.speed, unit).toFixed(2)]),
            markLine: time ? { symbol: 'none', silent: true, lineStyle: { color: '#f5222d' }, label: { show: false }, data: [{ xAxis: time }] } : undefined,
          },
        ],
      },
      { notMerge: false },
    );
  }, [points, unit, time, formatTime]);

  return <div ref={ref} style={{ width: '100%', height: 120 }} data-testid="speed-timeline" />;
}
