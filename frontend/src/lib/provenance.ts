// Where a value came from, in a sentence a person reads first ("from invoice-042.pdf, page 2,
// line 14, read by the PDF reader on 12 March"); the internal terms (payload, priority,
// specificity) stay under "details" in the panel (issue 12 §5). Tested in provenance.test.ts.

import { baseName } from './format';
import type { FieldProvenance } from './types';

type Prov = Pick<FieldProvenance, 'source_observation' | 'source_payload' | 'source_document'>;

/** The reader that read a file, named by its extension. */
export function readerName(path: string | undefined): string {
  const ext = (path ?? '').toLowerCase().replace(/^.*\./, '');
  const readers: Record<string, string> = {
    pdf: 'the PDF reader',
    md: 'the Markdown reader',
    markdown: 'the Markdown reader',
    html: 'the HTML reader',
    htm: 'the HTML reader',
    docx: 'the Word reader',
    csv: 'the CSV reader',
    json: 'the JSON reader',
    txt: 'the text reader',
  };
  return readers[ext] ?? 'the text reader';
}

/** How the value was found, from the observation's extractor. */
function how(extractor: string, path: string | undefined): string {
  if (extractor === 'file:analyze') return `read by ${readerName(path)}`;
  if (extractor === 'file:register') return 'recorded when the file was added';
  if (extractor.startsWith('llm') || extractor.includes('semantic')) return 'read by the local language model';
  if (extractor.startsWith('file:')) return `read by ${readerName(path)}`;
  return `given by ${extractor}`;
}

/** Who brought the source in, from the payload's origin "source" (the caller's door). */
export function addedBy(origin: Record<string, unknown> | null | undefined): string {
  const src = typeof origin?.source === 'string' ? origin.source : '';
  if (src === 'app') return 'added in the Strata app';
  if (src === 'cli') return 'added from the command line';
  if (src === 'watch' || src === 'reconcile' || src === 'file:changed') return 'found in a watched folder';
  if (src === 'retry') return 'read again after a retry';
  if (src.startsWith('mcp:')) return `added by the AI client ${src.slice(4)}`;
  if (src === 'mcp') return 'added by an AI client';
  return src ? `added by ${src}` : '';
}

/** "12 March" (with the year when it is not this year's). */
export function dayText(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const opts: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', timeZone: 'UTC' };
  if (d.getUTCFullYear() !== now.getUTCFullYear()) opts.year = 'numeric';
  return d.toLocaleDateString('en-GB', opts);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && v > 0 ? v : undefined;
}

/** The one-sentence answer to "where does this value come from?". */
export function provenanceSentence(p: Prov, now: Date = new Date()): string {
  const span = (p.source_observation.span ?? {}) as Record<string, unknown>;
  const doc = p.source_document;
  const path = doc?.path;
  const parts: string[] = [];
  if (doc) parts.push(`from ${path ? baseName(path) : doc.title || doc.document_id}`);
  else if (p.source_payload.kind === 'content') parts.push('from a note');
  else parts.push(`from data of kind ${p.source_payload.kind}`);
  const page = num(span.page);
  const line = num(span.line) ?? num(span.line_start);
  if (page) parts.push(`page ${page}`);
  if (line) parts.push(`line ${line}`);
  let s = parts.join(', ');
  s += `, ${how(p.source_observation.extractor, path)}`;
  const day = dayText(p.source_observation.observed_at, now);
  if (day) s += ` on ${day}`;
  return s;
}
