// The Health screen's words and arithmetic (tested in health.test.ts): what each kind of lint
// finding means, the tabs in a fixed order with their counts, where a value or a piece of
// evidence came from and where a fix leads, and the page a person is on.

import { citation, formatValue, plural } from './format';
import { href } from './route';
import type { FindingEvidence, FindingFix, FindingValue, LintFinding } from './types';

export interface KindInfo {
  /** The tab's name. */
  label: string;
  /** What the kind means, in a sentence or two. */
  blurb: string;
  /** What the tab says when it has nothing. */
  none: string;
}

/** The kinds in the order lint reports them within a severity (lint.Kinds). */
export const kindOrder = ['contradiction', 'stale', 'missing_link', 'undocumented_concept', 'orphan'] as const;

export const kindInfo: Record<string, KindInfo> = {
  contradiction: {
    label: 'Contradictions',
    blurb:
      'One field of an entity has different values from different sources, and nothing says which is right: no source is marked as correcting or superseding the other, and neither is a newer version of the other. The value shown today is only the one the merge policy picked.',
    none: 'No contradictions: where sources give a field a value, they agree, or a link says which one corrects the other.',
  },
  stale: {
    label: 'Stale',
    blurb:
      'A value whose source is much older than a newer source that mentions the same entity without restating it, so it may no longer hold; or a document that a newer version of itself has replaced.',
    none: 'Nothing stale: no value rests on a source much older than what newer sources say about its entity.',
  },
  missing_link: {
    label: 'Missing links',
    blurb: 'A document names an entity Strata knows (by its name or an alias), but nothing links the two. Linking them makes the document show up from the entity.',
    none: 'No missing links: every document that names a known entity is linked to it.',
  },
  undocumented_concept: {
    label: 'Undocumented concepts',
    blurb: 'A concept (a tag, keyword or heading term) that several documents use but no document explains. It may deserve a note of its own.',
    none: 'No undocumented concepts: every concept several documents use has a document that explains it.',
  },
  orphan: {
    label: 'Orphans',
    blurb: 'An entity mentioned once and linked to nothing, or a document with no entities and no links: nothing connects it to the rest of the store.',
    none: 'No orphans: everything is connected to something.',
  },
};

/** What a kind is called and means; a kind this build does not know is named as it comes. */
export function infoOf(kind: string): KindInfo {
  return kindInfo[kind] ?? { label: kind.replace(/_/g, ' '), blurb: '', none: 'Nothing of this kind.' };
}

/** The tabs: every known kind in report order (0 when the report lacks it), then any other kind the report counts. */
export function kindTabs(counts: Record<string, number> | null | undefined): { kind: string; count: number }[] {
  const c = counts ?? {};
  const known: string[] = [...kindOrder];
  const extra = Object.keys(c)
    .filter((k) => !known.includes(k))
    .sort();
  return [...known, ...extra].map((kind) => ({ kind, count: c[kind] ?? 0 }));
}

/** The tab to open when the address names none: the first kind with findings, else the first. */
export function defaultKind(counts: Record<string, number> | null | undefined): string {
  return kindTabs(counts).find((t) => t.count > 0)?.kind ?? kindOrder[0];
}

/** The pill colour of a severity. */
export function severityTone(s: string): 'err' | 'warn' | 'info' {
  return s === 'high' ? 'err' : s === 'medium' ? 'warn' : 'info';
}

/** Where a value or a piece of evidence came from: "path:line", the page, the note's title, or who submitted it. */
export function evidencePlace(ev: FindingEvidence | null | undefined): string {
  if (!ev) return '';
  if (ev.path || ev.document_id) {
    return citation({ path: ev.path || ev.title, line_start: ev.line_start, page: ev.page }) || ev.title || 'a document';
  }
  if (ev.source) return `submitted by ${ev.source}`;
  return '';
}

/** Where clicking a place leads: the document at its line, else the entity; null when neither is known. */
export function evidenceHref(ev: FindingEvidence | null | undefined): string | null {
  if (!ev) return null;
  if (ev.document_id) return href.document(ev.document_id, ev.line_start ? { line: ev.line_start } : {});
  if (ev.entity_id) return href.entity(ev.entity_id);
  return null;
}

/** A value as text. */
export function valueText(v: FindingValue): string {
  return formatValue(v.value);
}

/** Where an "open" fix leads: the document at its line, else the entity (null for any other action). */
export function fixHref(f: FindingFix): string | null {
  if (f.action !== 'open') return null;
  if (f.document_id) return href.document(f.document_id, f.line ? { line: f.line } : {});
  if (f.entity_id) return href.entity(f.entity_id);
  return null;
}

/** Whether the UI can carry out a fix: opening a place, or creating the link it names. */
export function fixable(f: FindingFix): boolean {
  if (f.action === 'open') return !!(f.document_id || f.entity_id);
  if (f.action === 'create_relationship') return !!(f.relationship_type && f.source_entity_id && f.target_entity_id);
  return false;
}

/** "26–50 of 312" ("3 findings" on a single page, "" when empty). */
export function pageRange(offset: number, shown: number, total: number): string {
  if (total <= 0 || shown <= 0) return '';
  if (offset === 0 && shown >= total) return plural(total, 'finding');
  return `${offset + 1}–${offset + shown} of ${total}`;
}

/** How many pages of size hold total (at least 1). */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** A page number from the address: 1…last, anything else 1. */
export function pageParam(v: string | undefined): number {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** Findings grouped by kind, in report order; each group keeps the report's order. */
export function groupByKind(findings: LintFinding[]): { kind: string; findings: LintFinding[] }[] {
  const m = new Map<string, LintFinding[]>();
  for (const f of findings) m.set(f.kind, [...(m.get(f.kind) ?? []), f]);
  return kindTabs(Object.fromEntries([...m.keys()].map((k) => [k, 1])))
    .filter((t) => m.has(t.kind))
    .map((t) => ({ kind: t.kind, findings: m.get(t.kind)! }));
}

/** Whether two places are one: the same document line (or page), or the same agent. */
export function samePlace(a: FindingEvidence, b: FindingEvidence): boolean {
  if (a.document_id || b.document_id) return a.document_id === b.document_id && (a.line_start ?? 0) === (b.line_start ?? 0) && (a.page ?? 0) === (b.page ?? 0);
  return !!a.source && a.source === b.source;
}

/**
 * A finding's values each with the quote at its own place (the evidence from the same line),
 * and the evidence left over: what the sources say is shown once, beside the value it gives.
 */
export function valuesWithQuotes(f: LintFinding): { values: { value: FindingValue; quote: string }[]; rest: FindingEvidence[] } {
  const used = new Set<number>();
  const values = (f.values ?? []).map((v) => {
    const i = (f.evidence ?? []).findIndex((ev, j) => !used.has(j) && samePlace(ev, v.source));
    if (i < 0) return { value: v, quote: '' };
    used.add(i);
    return { value: v, quote: f.evidence[i].quote?.trim() ?? '' };
  });
  return { values, rest: (f.evidence ?? []).filter((_, j) => !used.has(j)) };
}
