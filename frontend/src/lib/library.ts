// The Library's list, as plain functions (tested in library.test.ts): what the address says
// (filters and order, so they survive opening a document, back/forward and a reload), which
// rows a scrolled viewport shows, and the pages of rows to fetch for them.

import type { DocumentQuery } from './types';

/** An order of the list: the values of Go's engine.DocumentSort the Library offers. */
export type SortKey = 'added' | 'name' | 'size' | 'status';

export interface SortOption {
  key: SortKey;
  label: string;
  /** The direction a click on the column starts with, as a file manager does: newest, A→Z,
   * largest, failed first. */
  desc: boolean;
  /** What each direction reads as. */
  asc: string;
  descLabel: string;
}

export const sortOptions: SortOption[] = [
  { key: 'added', label: 'Added', desc: true, asc: 'oldest first', descLabel: 'newest first' },
  { key: 'name', label: 'Name', desc: false, asc: 'A → Z', descLabel: 'Z → A' },
  { key: 'size', label: 'Size', desc: true, asc: 'smallest first', descLabel: 'largest first' },
  { key: 'status', label: 'Status', desc: false, asc: 'failed first', descLabel: 'removed first' },
];

/** The list's state as the address holds it. */
export interface LibraryView {
  type: string;
  status: string;
  path: string;
  sort: SortKey;
  desc: boolean;
}

const defaultSort: SortKey = 'added';

function sortOf(s: string | undefined): SortKey {
  return sortOptions.some((o) => o.key === s) ? (s as SortKey) : defaultSort;
}

/** Reads the list's state from the route's query; anything missing is the default (every
 * document, newest first). */
export function parseView(q: Record<string, string>): LibraryView {
  const sort = sortOf(q.sort);
  const natural = sortOptions.find((o) => o.key === sort)!.desc;
  const desc = q.dir === 'asc' ? false : q.dir === 'desc' ? true : natural;
  return { type: q.type ?? '', status: q.status ?? '', path: q.path ?? '', sort, desc };
}

/** The query for the address: only what differs from the defaults, so the plain Library is
 * #/library. */
export function viewQuery(v: LibraryView): Record<string, string> {
  const out: Record<string, string> = {};
  if (v.type) out.type = v.type;
  if (v.status) out.status = v.status;
  if (v.path) out.path = v.path;
  if (v.sort !== defaultSort) out.sort = v.sort;
  const natural = sortOptions.find((o) => o.key === v.sort)!.desc;
  if (v.desc !== natural) out.dir = v.desc ? 'desc' : 'asc';
  return out;
}

/** A key that changes whenever the list's rows would: filters and order. */
export function viewKey(v: LibraryView): string {
  return JSON.stringify([v.type, v.status, v.path, v.sort, v.desc]);
}

/** Whether any filter narrows the list. */
export function isFiltered(v: LibraryView): boolean {
  return !!(v.type || v.status || v.path);
}

/** The engine's query for a page of the view. */
export function documentQuery(v: LibraryView, offset: number, limit: number): DocumentQuery {
  return {
    type: v.type || undefined,
    status: v.status || undefined,
    path: v.path || undefined,
    sort: v.sort as DocumentQuery['sort'],
    desc: v.desc || undefined,
    offset,
    limit,
  };
}

/** A click on a column's header: the same column flips its direction, another starts with its
 * natural one. */
export function toggleSort(v: LibraryView, key: SortKey): LibraryView {
  if (v.sort === key) return { ...v, desc: !v.desc };
  return { ...v, sort: key, desc: sortOptions.find((o) => o.key === key)!.desc };
}

/**
 * The rows a viewport shows, and `overscan` rows either side: the list starts `listTop` pixels
 * below the top of its scrolling container, which is scrolled `scrollTop` and `height` tall.
 * Returns [first, end) row indexes, clamped to [0, total).
 */
export function visibleRows(scrollTop: number, height: number, listTop: number, rowHeight: number, total: number, overscan: number): [number, number] {
  if (total <= 0 || rowHeight <= 0) return [0, 0];
  const top = scrollTop - listTop;
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const end = Math.min(total, Math.ceil((top + height) / rowHeight) + overscan);
  return end > first ? [first, end] : [Math.min(first, total - 1), Math.min(first, total - 1) + 1];
}

/** The pages (of `size` rows) that hold rows [first, end). */
export function pagesFor(first: number, end: number, size: number): number[] {
  const out: number[] = [];
  if (end <= first) return out;
  for (let p = Math.floor(first / size); p <= Math.floor((end - 1) / size); p++) out.push(p);
  return out;
}

/** The scroll position that brings row `index` into a viewport, moving as little as possible
 * (none if it is already whole in view). */
export function scrollToRow(index: number, scrollTop: number, height: number, listTop: number, rowHeight: number, header = 0): number {
  const rowTop = listTop + index * rowHeight;
  if (rowTop - header < scrollTop) return rowTop - header;
  if (rowTop + rowHeight > scrollTop + height) return rowTop + rowHeight - height;
  return scrollTop;
}
