import { describe, expect, it } from 'vitest';
import { columns, countBars, daySeries, statusOrder, total } from './chart';

describe('countBars', () => {
  it('sorts largest first with fractions of the largest', () => {
    expect(countBars({ note: 6, invoice: 1, article: 2 })).toEqual([
      { label: 'note', value: 6, fraction: 1 },
      { label: 'article', value: 2, fraction: 2 / 6 },
      { label: 'invoice', value: 1, fraction: 1 / 6 },
    ]);
  });
  it('breaks ties by label and drops zeros', () => {
    expect(countBars({ b: 1, a: 1, c: 0 }).map((b) => b.label)).toEqual(['a', 'b']);
  });
  it('sums the smallest into "others" beyond max', () => {
    const bars = countBars({ a: 5, b: 4, c: 3, d: 2, e: 1 }, 3);
    expect(bars.map((b) => [b.label, b.value])).toEqual([
      ['a', 5],
      ['b', 4],
      ['others', 6],
    ]);
    expect(bars[2].fraction).toBe(1);
    expect(bars[0].fraction).toBeCloseTo(5 / 6);
  });
  it('follows a given order (statuses in lifecycle order)', () => {
    expect(countBars({ failed: 1, analyzed: 10, registered: 2 }, 6, statusOrder).map((b) => b.label)).toEqual(['registered', 'analyzed', 'failed']);
  });
  it('empty input', () => {
    expect(countBars(null)).toEqual([]);
    expect(total(null)).toBe(0);
    expect(total({ a: 2, b: 3 })).toBe(5);
  });
});

describe('daySeries', () => {
  it('fills missing days with zero', () => {
    expect(
      daySeries([
        { day: '2025-01-01', count: 2 },
        { day: '2025-01-04', count: 1 },
      ]),
    ).toEqual([
      { day: '2025-01-01', count: 2 },
      { day: '2025-01-02', count: 0 },
      { day: '2025-01-03', count: 0 },
      { day: '2025-01-04', count: 1 },
    ]);
  });
  it('runs until the given day and keeps at most `days`', () => {
    const s = daySeries([{ day: '2025-01-01', count: 2 }], 5, '2025-01-10');
    expect(s.map((d) => d.day)).toEqual(['2025-01-06', '2025-01-07', '2025-01-08', '2025-01-09', '2025-01-10']);
    expect(s.every((d) => d.count === 0)).toBe(true);
  });
  it('shows at least minDays', () => {
    const s = daySeries([{ day: '2025-03-01', count: 4 }], 30, '2025-03-01', 7);
    expect(s).toHaveLength(7);
    expect(s[0].day).toBe('2025-02-23');
    expect(s[6]).toEqual({ day: '2025-03-01', count: 4 });
  });
  it('crosses month and year ends and ignores bad days', () => {
    const s = daySeries([
      { day: '2024-12-31', count: 1 },
      { day: 'nonsense', count: 9 },
      { day: '2025-01-01', count: 1 },
    ]);
    expect(s.map((d) => d.day)).toEqual(['2024-12-31', '2025-01-01']);
    expect(daySeries([])).toEqual([]);
    expect(daySeries(null)).toEqual([]);
  });
});

describe('columns', () => {
  it('lays out columns bottom-aligned, scaled to the largest', () => {
    const c = columns(
      [
        { day: 'a', count: 1 },
        { day: 'b', count: 0 },
        { day: 'c', count: 4 },
      ],
      300,
      100,
      0,
    );
    expect(c.map((x) => [x.x, x.width, x.height, x.y])).toEqual([
      [0, 100, 25, 75],
      [100, 100, 0, 100],
      [200, 100, 100, 0],
    ]);
  });
  it('keeps tiny counts visible', () => {
    const c = columns(
      [
        { day: 'a', count: 1 },
        { day: 'b', count: 1000 },
      ],
      100,
      50,
    );
    expect(c[0].height).toBe(2);
    expect(columns([], 100, 50)).toEqual([]);
  });
});
