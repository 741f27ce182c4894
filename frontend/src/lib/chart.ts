// Data transforms for the library's overview chart (drawn as inline SVG by OverviewChart.svelte).

import { docStatuses, type DayCount } from './types';

export interface Bar {
  label: string;
  value: number;
  /** value / the largest value (0–1), for bar lengths. */
  fraction: number;
}

/**
 * Counts as bars, largest first (ties by label); beyond max bars the smallest are summed into
 * "others". Zero counts are dropped.
 */
export function countBars(counts: Record<string, number> | null | undefined, max = 8, order?: readonly string[]): Bar[] {
  let entries = Object.entries(counts ?? {}).filter(([, v]) => Number.isFinite(v) && v > 0);
  if (order) {
    const rank = (k: string) => {
      const i = order.indexOf(k);
      return i < 0 ? order.length : i;
    };
    entries.sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]));
  } else {
    entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  }
  if (entries.length > max) {
    const kept = entries.slice(0, max - 1);
    const rest = entries.slice(max - 1).reduce((s, [, v]) => s + v, 0);
    entries = [...kept, ['others', rest]];
  }
  const top = entries.reduce((m, [, v]) => Math.max(m, v), 0);
  return entries.map(([label, value]) => ({ label, value, fraction: top ? value / top : 0 }));
}

function dayNumber(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  return Math.floor(Date.UTC(+m[1], +m[2] - 1, +m[3]) / 86400000);
}

function dayString(n: number): string {
  return new Date(n * 86400000).toISOString().slice(0, 10);
}

/**
 * Documents per day as a continuous series: the days between the first and the last reported
 * day (or `until`, e.g. today) with missing days as 0, at most the last `days` days and at
 * least `minDays` (so one busy day does not fill the whole chart).
 */
export function daySeries(byDay: DayCount[] | null | undefined, days = 30, until?: string, minDays = 0): DayCount[] {
  const known = new Map<number, number>();
  let first = Infinity;
  let last = -Infinity;
  for (const d of byDay ?? []) {
    const n = dayNumber(d.day);
    if (n === null) continue;
    known.set(n, (known.get(n) ?? 0) + d.count);
    first = Math.min(first, n);
    last = Math.max(last, n);
  }
  if (known.size === 0) return [];
  const end = Math.max(last, until ? (dayNumber(until) ?? last) : last);
  let start = Math.max(first, end - days + 1);
  if (minDays > 0) start = Math.min(start, end - Math.min(minDays, days) + 1);
  const out: DayCount[] = [];
  for (let n = start; n <= end; n++) out.push({ day: dayString(n), count: known.get(n) ?? 0 });
  return out;
}

export interface Column {
  x: number;
  y: number;
  width: number;
  height: number;
  day: string;
  count: number;
}

/** Lays a day series out as SVG columns in a width × height box (bottom at height). */
export function columns(series: DayCount[], width: number, height: number, gap = 2): Column[] {
  if (series.length === 0) return [];
  const max = series.reduce((m, d) => Math.max(m, d.count), 0) || 1;
  const slot = width / series.length;
  const w = Math.max(1, slot - gap);
  return series.map((d, i) => {
    const h = d.count === 0 ? 0 : Math.max(2, (d.count / max) * height);
    return { x: i * slot + (slot - w) / 2, y: height - h, width: w, height: h, day: d.day, count: d.count };
  });
}

/** The total of a count map. */
export function total(counts: Record<string, number> | null | undefined): number {
  return Object.values(counts ?? {}).reduce((s, v) => s + (Number.isFinite(v) ? v : 0), 0);
}

/** The order statuses are shown in (lifecycle order). */
export const statusOrder: readonly string[] = docStatuses;
