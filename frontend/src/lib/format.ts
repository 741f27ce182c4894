// Small, pure formatting helpers (tested in format.test.ts).

export interface Citable {
  path?: string;
  title?: string;
  line_start?: number;
  line_end?: number;
  /** The line of the words shown (a search result's snippet), inside line_start–line_end. */
  line?: number;
  page?: number;
}

/**
 * How a result or an observation cites its place: "path:line" for text files, "path p. N" for
 * pages (PDF), "p. N" or "line N" when there is no path (notes and pasted text).
 */
export function citation(c: Citable): string {
  const page = c.page && c.page > 0 ? c.page : 0;
  const line = c.line && c.line > 0 ? c.line : c.line_start && c.line_start > 0 ? c.line_start : 0;
  if (c.path) {
    if (page) return `${c.path} p. ${page}`;
    if (line) return `${c.path}:${line}`;
    return c.path;
  }
  if (page) return `p. ${page}`;
  if (line) return `line ${line}`;
  return c.title ?? '';
}

/** The lines a chunk covers: "line 4" or "lines 4–9". */
export function lineRange(start?: number, end?: number): string {
  if (!start) return '';
  if (!end || end <= start) return `line ${start}`;
  return `lines ${start}–${end}`;
}

/** The last segment of a path (both / and \ separators). */
export function baseName(path: string): string {
  const p = path.replace(/[\\/]+$/, '');
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i >= 0 ? p.slice(i + 1) : p;
}

/**
 * A path named by its file and the folder holding it ("libfoo/copyright"): enough to tell
 * apart the many files of one name a documentation tree holds, short enough for one line.
 */
export function shortPath(path: string): string {
  const dir = baseName(dirName(path));
  return dir && dir !== '/' && dir !== '\\' ? `${dir}/${baseName(path)}` : baseName(path);
}

/** The folder of a path ("" when it has none). */
export function dirName(path: string): string {
  const p = path.replace(/[\\/]+$/, '');
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i > 0 ? p.slice(0, i) : i === 0 ? p[0] : '';
}

/** 1536 → "1.5 KB". */
export function formatBytes(n: number | undefined | null): string {
  if (n === undefined || n === null || !Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

function parseTime(t: string | undefined | null): Date | null {
  if (!t) return null;
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** An RFC 3339 time as local "2025-01-15 10:30". */
export function formatTime(t: string | undefined | null): string {
  const d = parseTime(t);
  if (!d) return t ?? '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", else the date. */
export function relativeTime(t: string | undefined | null, now: Date = new Date()): string {
  const d = parseTime(t);
  if (!d) return t ?? '';
  const s = Math.round((now.getTime() - d.getTime()) / 1000);
  if (s < 0) return formatTime(t);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  if (s < 86400 * 14) {
    const days = Math.round(s / 86400);
    return days === 1 ? 'yesterday' : `${days} days ago`;
  }
  return formatTime(t).slice(0, 10);
}

/** A snapshot or observation value as short text: strings as they are, the rest as JSON. */
export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/** Whether a value is better shown as a block (objects, arrays of objects, long text). */
export function isComplexValue(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'string') return v.length > 120 || v.includes('\n');
  if (Array.isArray(v)) return v.some((x) => typeof x === 'object' && x !== null) || v.length > 6;
  return typeof v === 'object';
}

/** Pretty JSON for blocks. */
export function prettyValue(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
}

/** 5000 → "5,000", the same as Go's figures whatever the browser's locale. */
export function thousands(n: number): string {
  return Math.trunc(n).toLocaleString('en-US');
}

/** Plural helper: plural(1, 'file') → "1 file", plural(3, 'file') → "3 files". */
export function plural(n: number, one: string, many = one + 's'): string {
  return `${thousands(n)} ${n === 1 ? one : many}`;
}

/** A short label for an observation: its name-like field, else the first string field. */
export function observationLabel(fields: Record<string, unknown> | null | undefined, fallback = ''): string {
  if (!fields) return fallback;
  for (const k of ['name', 'canonical_name', 'title', 'email', 'url', 'invoice_number', 'description', 'value']) {
    const v = fields[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  for (const v of Object.values(fields)) {
    if (typeof v === 'string' && v.trim() !== '' && v.length < 80) return v;
  }
  return fallback;
}

/** "meeting-notes" → "Meeting notes". */
export function humanize(s: string): string {
  if (!s) return '';
  const t = s.replace(/[_-]+/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** A local date (YYYY-MM-DD) for <input type=date> defaults. */
export function todayISO(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
