import { describe, expect, it } from 'vitest';
import { documentQuery, isFiltered, pagesFor, parseView, scrollToRow, toggleSort, viewKey, viewQuery, visibleRows } from './library';

describe('the list in the address', () => {
  it('is newest first, unfiltered, when the address says nothing', () => {
    expect(parseView({})).toEqual({ type: '', status: '', path: '', sort: 'added', desc: true });
    expect(viewQuery(parseView({}))).toEqual({});
  });

  it('gives each order its natural direction and writes only what differs', () => {
    expect(parseView({ sort: 'name' }).desc).toBe(false);
    expect(parseView({ sort: 'size' }).desc).toBe(true);
    expect(parseView({ sort: 'status' }).desc).toBe(false);
    expect(parseView({ sort: 'name', dir: 'desc' }).desc).toBe(true);
    expect(viewQuery({ type: 'invoice', status: 'failed', path: '/home', sort: 'name', desc: true })).toEqual({
      type: 'invoice',
      status: 'failed',
      path: '/home',
      sort: 'name',
      dir: 'desc',
    });
    expect(viewQuery(parseView({ sort: 'added', dir: 'asc' }))).toEqual({ dir: 'asc' });
  });

  it('round-trips every view', () => {
    for (const sort of ['added', 'name', 'size', 'status'] as const) {
      for (const desc of [false, true]) {
        const v = { type: 't', status: '', path: '/p', sort, desc };
        expect(parseView(viewQuery(v))).toEqual(v);
      }
    }
  });

  it('ignores an order it does not know', () => {
    expect(parseView({ sort: 'path; drop' }).sort).toBe('added');
  });

  it('flips a column clicked twice, and starts another at its natural direction', () => {
    const v = parseView({});
    expect(toggleSort(v, 'added').desc).toBe(false);
    expect(toggleSort(v, 'name')).toMatchObject({ sort: 'name', desc: false });
    expect(toggleSort(v, 'size')).toMatchObject({ sort: 'size', desc: true });
  });

  it('keys rows by filters and order, and asks the engine for them', () => {
    const v = parseView({ status: 'failed', sort: 'size' });
    expect(viewKey(v)).not.toBe(viewKey({ ...v, desc: false }));
    expect(isFiltered(v)).toBe(true);
    expect(isFiltered(parseView({ sort: 'name' }))).toBe(false);
    expect(documentQuery(v, 200, 100)).toEqual({ type: undefined, status: 'failed', path: undefined, sort: 'size', desc: true, offset: 200, limit: 100 });
  });
});

describe('the virtual window', () => {
  it('shows the rows in view and a few either side', () => {
    // 50 px rows from 300 px down a container scrolled 1000 px, 600 px tall: rows 14–25 in view.
    expect(visibleRows(1000, 600, 300, 50, 5000, 0)).toEqual([14, 26]);
    expect(visibleRows(1000, 600, 300, 50, 5000, 5)).toEqual([9, 31]);
  });

  it('clamps to the list', () => {
    expect(visibleRows(0, 800, 300, 50, 5000, 5)).toEqual([0, 15]);
    expect(visibleRows(300 + 50 * 4990, 800, 300, 50, 5000, 5)).toEqual([4985, 5000]);
    expect(visibleRows(0, 800, 300, 50, 0, 5)).toEqual([0, 0]);
  });

  it('fetches the pages that hold the rows', () => {
    expect(pagesFor(0, 15, 100)).toEqual([0]);
    expect(pagesFor(95, 130, 100)).toEqual([0, 1]);
    expect(pagesFor(4985, 5000, 100)).toEqual([49]);
    expect(pagesFor(10, 10, 100)).toEqual([]);
  });

  it('scrolls a row into view only as far as needed, below a sticky header', () => {
    expect(scrollToRow(20, 1000, 600, 300, 50, 40)).toBe(1000); // row 20 is at 1300: in view
    expect(scrollToRow(5, 1000, 600, 300, 50, 40)).toBe(300 + 250 - 40);
    expect(scrollToRow(40, 1000, 600, 300, 50, 40)).toBe(300 + 2050 - 600);
  });
});
