// Links the facts found in a document to the text they came from. Chunk texts are slices of the
// document's extracted text, and observation spans cite byte offsets and lines in that same
// text (backend/extract, backend/heuristics): a span with bytes inside a chunk is marked inline,
// a span with only a line gets a marker in that line's gutter.

import type { Chunk, Observation } from './types';

export interface Annotation {
  key: string; // unique within a document
  kind: string; // email, date, money, url, hashtag, person, concept, …
  label: string;
  entityId?: string; // the entity the fact is about, when it has its own page
  line?: number;
  byteStart?: number;
  byteEnd?: number;
}

export interface LineSegment {
  text: string;
  ann?: Annotation;
}

export interface TextLine {
  number: number;
  /** The line comes from the same file line as the one before it (HTML: a cell, a list item). */
  continued: boolean;
  segments: LineSegment[];
  /** Facts on this line (inline ones included), for the gutter. */
  markers: Annotation[];
}

const encoder = new TextEncoder();

/** UTF-8 length of a string. */
export function utf8Length(s: string): number {
  return encoder.encode(s).length;
}

/** Maps UTF-8 byte offsets of s to UTF-16 indexes (offsets inside a character round down). */
export function byteToIndex(s: string): (byte: number) => number {
  const starts: number[] = []; // starts[k] = byte offset of the k-th UTF-16 unit
  let b = 0;
  for (let i = 0; i < s.length; i++) {
    starts.push(b);
    const c = s.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      // high surrogate: the pair is 4 bytes; give them to the high half
      b += 4;
      starts.push(b);
      i++;
    } else b += 3;
  }
  const total = b;
  return (byte: number) => {
    if (byte <= 0) return 0;
    if (byte >= total) return s.length;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= byte) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * The annotations of a document's observations: each finding of an analysis observation
 * (dates, money, e-mails, URLs, hashtags), and each other observation with a span (a person
 * from an e-mail, a concept from a hashtag, facts from the semantic phase) linked to its entity.
 */
export function annotations(observations: Observation[], documentEntityId = ''): Annotation[] {
  const out: Annotation[] = [];
  for (const o of observations) {
    const span = o.span ?? undefined;
    if (!span) continue;
    if (Array.isArray(span.findings)) {
      span.findings.forEach((f, i) => {
        if (!f || typeof f !== 'object') return;
        out.push({
          key: `${o.id}#${i}`,
          kind: String(f.kind ?? 'fact'),
          label: String(f.value ?? ''),
          entityId: o.entity_id !== documentEntityId ? o.entity_id : undefined,
          line: num(f.line),
          byteStart: num(f.byte_start),
          byteEnd: num(f.byte_end),
        });
      });
      continue;
    }
    const line = num(span.line) ?? num(span.line_start);
    const byteStart = num(span.byte_start);
    if (line === undefined && byteStart === undefined) continue;
    const fields = o.fields ?? {};
    const label =
      ['name', 'email', 'title', 'url', 'value'].map((k) => fields[k]).find((v): v is string => typeof v === 'string' && v !== '') ??
      o.entity_type;
    out.push({
      key: o.id,
      kind: o.entity_type,
      label,
      entityId: o.entity_id,
      line,
      byteStart,
      byteEnd: num(span.byte_end),
    });
  }
  return out;
}

/**
 * Splits a chunk into numbered lines with the annotations that fall in it: inline where the
 * bytes are known (and for a span with only a start, where its label is found right there),
 * else as a gutter marker on its line. Overlapping inline spans: the earlier one wins, and at
 * the same start the one linked to an entity.
 *
 * Lines are numbered with the file's lines, the ones search cites: for a file the reader
 * rewrote (HTML) the chunk carries the file's line of each of its text lines (`lines`), and
 * an annotation's byte offsets index the extracted text (`text_start`/`text_end`), not the file.
 */
export function annotateChunk(
  chunk: Pick<Chunk, 'text' | 'byte_start' | 'byte_end' | 'line_start'> & Partial<Pick<Chunk, 'text_start' | 'text_end' | 'lines'>>,
  anns: Annotation[],
): TextLine[] {
  const text = chunk.text ?? '';
  const rawLines = text.split('\n');
  const first = chunk.line_start > 0 ? chunk.line_start : 1;
  const numbers = rawLines.map((_, i) => chunk.lines?.[i] ?? first + i);
  const lastLine = Math.max(...numbers);
  const textStart = chunk.text_start ?? chunk.byte_start;
  const textEnd = chunk.text_end ?? chunk.byte_end;
  const bytesMatch = utf8Length(text) === textEnd - textStart;
  const toIndex = byteToIndex(text);

  interface Ranged {
    ann: Annotation;
    start: number;
    end: number;
  }
  const ranged: Ranged[] = [];
  const byLine = new Map<number, Annotation[]>();
  const addMarker = (line: number, a: Annotation) => {
    const l = byLine.get(line) ?? [];
    if (!l.includes(a)) l.push(a);
    byLine.set(line, l);
  };

  for (const a of anns) {
    let placed = false;
    if (bytesMatch && a.byteStart !== undefined && a.byteStart >= textStart && a.byteStart < textEnd) {
      const start = toIndex(a.byteStart - textStart);
      let end = -1;
      if (a.byteEnd !== undefined && a.byteEnd > a.byteStart) {
        end = toIndex(Math.min(a.byteEnd, textEnd) - textStart);
      } else if (a.label) {
        // Only a start: look for the label there (a hashtag's span starts at its '#').
        const window = text.slice(start, start + a.label.length + 2).toLowerCase();
        const at = window.indexOf(a.label.toLowerCase());
        if (at >= 0) {
          end = start + at + a.label.length;
        }
      }
      if (end > start) {
        ranged.push({ ann: a, start, end });
        placed = true;
        const lineOf = numbers[text.slice(0, start).split('\n').length - 1];
        addMarker(lineOf, a);
      }
    }
    if (!placed && a.line !== undefined && a.line >= first && a.line <= lastLine) {
      // Without usable bytes: trust the line, but only when the bytes (if any) are in this chunk.
      if (a.byteStart === undefined || (a.byteStart >= textStart && a.byteStart < textEnd) || !bytesMatch) {
        addMarker(a.line, a);
      }
    }
  }
  // Where spans overlap, the earlier one wins; at the same place, the one linked to an entity
  // (a person rather than the bare e-mail finding), then the longer one.
  ranged.sort((x, y) => x.start - y.start || Number(!!y.ann.entityId) - Number(!!x.ann.entityId) || y.end - x.end);

  const lines: TextLine[] = [];
  let offset = 0;
  rawLines.forEach((lineText, i) => {
    const lineStart = offset;
    const lineEnd = offset + lineText.length;
    offset = lineEnd + 1;
    const segments: LineSegment[] = [];
    let pos = lineStart;
    for (const r of ranged) {
      if (r.end <= pos || r.start >= lineEnd) continue;
      const s = Math.max(r.start, pos);
      const e = Math.min(r.end, lineEnd);
      if (s > pos) segments.push({ text: text.slice(pos, s) });
      segments.push({ text: text.slice(s, e), ann: r.ann });
      pos = e;
    }
    if (pos < lineEnd || segments.length === 0) segments.push({ text: text.slice(pos, lineEnd) });
    // Several text lines can come from one file line: its markers go on the first of them.
    const n = numbers[i];
    const continued = i > 0 && numbers[i - 1] === n;
    lines.push({ number: n, continued, segments, markers: continued ? [] : (byLine.get(n) ?? []) });
  });
  return lines;
}

/** The chunk that holds a line (the first one whose range covers it), or undefined. */
export function chunkForLine<C extends Pick<Chunk, 'line_start' | 'line_end'>>(chunks: C[], line: number): C | undefined {
  return chunks.find((c) => c.line_start <= line && line <= Math.max(c.line_end, c.line_start));
}
