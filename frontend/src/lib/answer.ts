// An answer from Ask as a person reads it (tested in answer.test.ts): the text with each [n]
// turned into a link to the passage it cites, opened at its line; the sources and facts with
// their places; the mode in words. No untrusted text goes through innerHTML: the parts are
// rendered as text nodes and links.

import { citation, formatValue } from './format';
import { href } from './route';
import type { AskResponse, Citation, Fact } from './types';

/** A piece of an answer: plain text, or one citation [n] pointing at its passage. */
export type AnswerPart = { kind: 'text'; text: string } | { kind: 'cite'; n: number; cite: Citation };

// "[3]", and a group the model may write as "[1, 2]" or "[1,2]".
const citeGroup = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/**
 * Splits an answer into text and citations. Every number of a group becomes its own [n]; a
 * number no citation has (a year in brackets, "[2024]") stays text, so nothing links nowhere.
 */
export function splitAnswer(answer: string, citations: Citation[]): AnswerPart[] {
  const byN = new Map(citations.map((c) => [c.n, c]));
  const parts: AnswerPart[] = [];
  const text = (t: string) => {
    if (!t) return;
    const last = parts[parts.length - 1];
    if (last?.kind === 'text') last.text += t;
    else parts.push({ kind: 'text', text: t });
  };
  let pos = 0;
  for (const m of answer.matchAll(citeGroup)) {
    const nums = m[1].split(',').map((s) => Number(s.trim()));
    if (!nums.some((n) => byN.has(n))) continue; // not a citation: left in the text
    // The space before a citation does not break: "[1]" never starts a line on its own.
    text(answer.slice(pos, m.index).replace(/ $/, '\u00a0'));
    for (const n of nums) {
      const c = byN.get(n);
      if (c) parts.push({ kind: 'cite', n, cite: c });
      else text(`[${n}]`);
    }
    pos = m.index + m[0].length;
  }
  text(answer.slice(pos));
  return parts;
}

/** Where a citation opens: its document at its first line (highlighted there), else its chunk. */
export function citeHref(c: Pick<Citation, 'document_id' | 'line_start'> & { chunk_id?: string }): string {
  return c.line_start > 0 || !c.chunk_id ? href.document(c.document_id, { line: c.line_start }) : href.document(c.document_id, { chunk: c.chunk_id });
}

/** A citation's place: "path:line", "path p. N", or "line N" for a note without a file. */
export function citePlace(c: Pick<Citation, 'path' | 'line_start' | 'page'>): string {
  return citation({ path: c.path, line_start: c.line_start, page: c.page });
}

/** The hover of an [n]: the source and its words. */
export function citeTitle(c: Citation): string {
  const place = citePlace(c);
  const head = c.title && place !== c.title ? `${c.title} — ${place}` : place || c.title;
  const q = c.quote?.trim();
  return q ? `${head}\n“${q}”` : head;
}

/** A fact's value as text (strings as they are, the rest as JSON). */
export function factValue(f: Fact): string {
  return formatValue(f.value);
}

/**
 * Where a fact came from: a document's place and the link to its line, or, for a value an agent
 * submitted (no document, no line), whose word it is; null when neither is known.
 */
export function factSource(f: Fact): { place: string; href: string | null } | null {
  if (!f.document_id) return f.agent ? { place: `submitted by ${f.agent}`, href: null } : null;
  return {
    place: citation({ path: f.path, line_start: f.line, page: f.page }) || 'its source',
    href: href.document(f.document_id, f.line ? { line: f.line } : {}),
  };
}

/** How the answer was written, in words, with the hover that says what that means. */
export function modeText(a: Pick<AskResponse, 'mode' | 'model'>): { label: string; title: string } {
  if (a.mode === 'llm') {
    return {
      label: a.model ? `written by ${a.model}` : 'written by the local model',
      title: 'Written by the local chat model from these passages only; every sentence was checked against the passage it cites, and those that failed were removed.',
    };
  }
  return {
    label: 'extractive',
    title: 'Sentences taken from your documents as they are, no language model: start Ollama with a chat model for written answers.',
  };
}

/** What "Save answer" did, in words. */
export function savedText(a: Pick<AskResponse, 'document_id' | 'created'>): string {
  if (!a.document_id) return '';
  return a.created === false ? 'This answer was saved before: the same document.' : 'Saved as a document citing its sources.';
}

/** A notice from the engine ("nothing in the store answers this question") as a sentence. */
export function noticeText(n: string | undefined): string {
  // "not found: no passage says “3.9” …": the card says "Not found" itself
  const t = (n ?? '').trim().replace(/^not found:\s*/i, '').replace(/\.+$/, '');
  return t ? t.charAt(0).toUpperCase() + t.slice(1) + '.' : '';
}
