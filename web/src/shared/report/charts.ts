// The two bar charts every report screen draws (ECharts options for shared/charts/Chart): one bar per day of the
// range, and a ranking of terminals or groups. A page names its series; the axes, grid and tooltip are these.
import type { EChartsCoreOption } from 'echarts/core';
import { msToWall } from '../time/zone';

/** Every calendar day (YYYY-MM-DD) from a to b inclusive; at most 400 (a report's range is a month at most). */
export function daysBetween(a: string, b: string): string[] {
  const out: string[] = [];
  const d = new Date(`${a}T00:00:00Z`);
  const end = new Date(`${b}T00:00:00Z`);
  while (d <= end && out.length < 400) {
    out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

/** Every day of a report's range in the customer's zone, so the per-day chart shows days without data as zero. */
export function rangeDays(q: { sTime: number; eTime: number }): string[] {
  return daysBetween(msToWall(q.sTime).format('YYYY-MM-DD'), msToWall(q.eTime).format('YYYY-MM-DD'));
}

export interface BarSeries {
  name: string;
  color: string;
  data: number[];
  /** Series with the same stack are drawn on top of each other. */
  stack?: string;
}

function bars(series: BarSeries[]) {
  return series.map((s) => ({ name: s.name, type: 'bar', stack: s.stack, itemStyle: { color: s.color }, data: s.data }));
}

/** One bar (or stack) per day; days are YYYY-MM-DD and labelled MM-DD. A legend is shown for more than one series. */
export function dayBars(days: string[], series: BarSeries[], unit?: string): EChartsCoreOption {
  const legend = series.length > 1;
  return {
    tooltip: { trigger: 'axis' },
    ...(legend ? { legend: { top: 0 } } : {}),
    grid: { left: unit ? 48 : 40, right: 16, top: legend ? 36 : 24, bottom: 28 },
    xAxis: { type: 'category', data: days.map((d) => d.slice(5)) },
    yAxis: unit ? { type: 'value', name: unit } : { type: 'value', minInterval: 1 },
    series: bars(series),
  };
}

/** Horizontal bars, first label on top (the page passes them largest first and already cut to its top N). */
export function rankBars(labels: string[], series: BarSeries[], unit?: string, labelWidth = 140): EChartsCoreOption {
  const legend = series.length > 1;
  return {
    tooltip: { trigger: 'axis' },
    ...(legend ? { legend: { top: 0 } } : {}),
    grid: { left: labelWidth, right: 16, top: legend ? 32 : 16, bottom: 24 },
    xAxis: unit ? { type: 'value', name: unit } : { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: labels },
    series: bars(series),
  };
}
