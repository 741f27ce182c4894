import { describe, expect, it, vi } from 'vitest';
import { PagedRows, type Page } from './pages';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

const rows = (offset: number, limit: number, total: number, tag = '') => ({
  rows: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => `${tag}${offset + i}`),
  total,
});

describe('PagedRows', () => {
  it('fetches each page once and knows the total from the first answer', async () => {
    const fetch = vi.fn(async (o: number, l: number) => rows(o, l, 250));
    const changed = vi.fn();
    const p = new PagedRows<string>(fetch, 100, changed);
    expect(p.total).toBe(-1);
    await Promise.all([p.ensure([0, 1]), p.ensure([1])]);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(p.total).toBe(250);
    expect(p.get(0)).toBe('0');
    expect(p.get(199)).toBe('199');
    expect(p.get(200)).toBeUndefined();
    await p.ensure([2, 3]); // page 3 is past the end: not asked for
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(p.get(249)).toBe('249');
    expect(changed).toHaveBeenCalledTimes(3);
  });

  it('drops what a reset view still had in flight', async () => {
    const slow = deferred<Page<string>>();
    const fetch = vi.fn((o: number, l: number) => (o === 0 && fetch.mock.calls.length === 1 ? slow.promise : Promise.resolve(rows(o, l, 10, 'new'))));
    const p = new PagedRows<string>(fetch, 100, () => {});
    const first = p.ensure([0]);
    p.reset();
    await p.ensure([0]);
    slow.resolve(rows(0, 100, 5000, 'old'));
    await first;
    expect(p.get(0)).toBe('new0');
    expect(p.total).toBe(10);
  });

  it('refreshes the pages on screen without blanking them, and forgets the rest', async () => {
    let tag = 'a';
    const p = new PagedRows<string>(async (o, l) => rows(o, l, 1000, tag), 100, () => {});
    await p.ensure([0, 5]);
    tag = 'b';
    const r = p.refresh([5]);
    expect(p.get(500)).toBe('a500'); // still shown while the new rows come
    await r;
    expect(p.get(500)).toBe('b500');
    expect(p.has(0)).toBe(false);
    expect(p.findLoaded((x) => x === 'b510')).toBe(510);
  });

  it('keeps a page that scrolled into view while a refresh ran', async () => {
    const slow = deferred<Page<string>>();
    let tag = 'a';
    const fetch = vi.fn((o: number, l: number) => (o === 500 && tag === 'b' ? slow.promise : Promise.resolve(rows(o, l, 1000, tag))));
    const p = new PagedRows<string>(fetch, 100, () => {});
    await p.ensure([0, 5]);
    tag = 'b';
    const r = p.refresh([5]);
    await p.ensure([7]); // scrolled to page 7 meanwhile
    slow.resolve(rows(500, 100, 1000, 'b'));
    await r;
    expect(p.get(500)).toBe('b500');
    expect(p.get(700)).toBe('b700'); // not dropped, not fetched again
    expect(p.has(0)).toBe(false); // older than the refresh
    expect(fetch.mock.calls.filter(([o]) => o === 700)).toHaveLength(1);
  });

  it('reports a failed fetch of the current view only', async () => {
    const failed = vi.fn();
    const p = new PagedRows<string>(async () => Promise.reject(new Error('gone')), 100, () => {}, failed);
    await p.ensure([0]);
    expect(failed).toHaveBeenCalledTimes(1);
  });
});
