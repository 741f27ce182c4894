// Derived links (issue 14) as a person reads them: grouped by kind in plain words, each with a
// score that says what was measured, and the evidence it rests on as passages to open. A derived
// link is what Strata concluded, never what a source stated, so nothing here words it as a fact
// ("similarity 0.71", "3 passages together"), and the UI keeps it apart from asserted links
// (tested in enrich.test.ts).

import { baseName, citation, plural } from './format';
import type { EnrichStatus } from './types';

/** One thing a derived link rests on (enrich.Evidence), resolved to where a person can read it. */
export interface EvidenceItem {
  kind: string; // chunk | observation | document | vector
  id: string;
  document_id?: string;
  path?: string;
  title?: string;
  line_start?: number;
  line_end?: number;
  page?: number;
  quote?: string;
  score?: number;
  entity_id?: string;
  field?: string;
  value?: string;
  observation_id?: string;
}

/** One end of a link: the entity, and the document it stands for when it is one. */
export interface LinkEnd {
  entity_id: string;
  entity_type?: string;
  name?: string;
  document_id?: string;
  path?: string;
}

/** What the UI needs of a relationship, asserted or derived. */
export interface LinkLike {
  id: string;
  relationship_type: string;
  source_entity_id: string;
  target_entity_id: string;
  derived?: boolean;
  enrichment?: string;
  score?: number;
  evidence?: EvidenceItem[] | null;
  metadata?: Record<string, unknown> | null;
  source?: LinkEnd | null;
  target?: LinkEnd | null;
}

/** A derived link seen from one entity: the other end, which way it points, and its words. */
export interface DerivedRow<L extends LinkLike = LinkLike> {
  link: L;
  other: LinkEnd;
  /** true: this entity is the link's source ("this is a copy of …"). */
  outbound: boolean;
  /** What the row calls the other end: its file's name where the text is the same (a copy
   * bears the original's title), else its name. */
  label: string;
  /** For a copy: what the other end is to this one ("original" or "copy"), else "". */
  role: string;
  /** The score in words: "similarity 0.71", "3 passages together", "2 days apart". */
  measure: string;
  /** For the hover: which enrichment found it, and that it was derived. */
  why: string;
  evidence: EvidenceItem[];
}

export interface DerivedGroup<L extends LinkLike = LinkLike> {
  key: string;
  title: string;
  /** One sentence under the title saying what the group means. */
  blurb: string;
  rows: DerivedRow<L>[];
}

interface Kind {
  key: string;
  type: string;
  /** undefined: either direction; true/false: only links pointing out of / into the entity. */
  outbound?: boolean;
  title: string;
  blurb: string;
}

// The groups in the order a person looks for them: the same text first (copies, containment),
// then what is alike, then what the entity is about, then what keeps company and what is close
// in time. CONTAINED_IN reads differently from each end, so each direction is its own group.
const kinds: Kind[] = [
  { key: 'dup', type: 'DUPLICATE_OF', title: 'Duplicates / copies', blurb: 'Nearly the same text: a copy, an export or another version.' },
  { key: 'in', type: 'CONTAINED_IN', outbound: true, title: 'Contained in', blurb: 'Its text appears, almost whole, inside these.' },
  { key: 'holds', type: 'CONTAINED_IN', outbound: false, title: 'Contains', blurb: 'These appear, almost whole, inside its text.' },
  { key: 'sim', type: 'SIMILAR_TO', title: 'Similar documents', blurb: 'Close in meaning, measured on their text.' },
  { key: 'about', type: 'REFERS_TO', outbound: true, title: 'Concepts', blurb: 'Named by its tags, keywords or headings.' },
  { key: 'named', type: 'REFERS_TO', outbound: false, title: 'Named in', blurb: 'Documents whose tags, keywords or headings name it.' },
  { key: 'co', type: 'CO_OCCURS_WITH', title: 'Often mentioned with', blurb: 'Mentioned in the same passages more often than chance.' },
  { key: 'time', type: 'NEAR_IN_TIME', title: 'Around the same time', blurb: 'Dated close together, and sharing something.' },
];

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function first(meta: Record<string, unknown> | null | undefined, keys: string[]): number | undefined {
  if (!meta) return undefined;
  for (const k of keys) {
    const v = num(meta[k]);
    if (v !== undefined) return v;
  }
  return undefined;
}

// Where TagConceptBridger found a concept's name, in words.
const sourceWords: Record<string, string> = {
  heading: 'headings',
  tag: 'tags',
  tags: 'tags',
  hashtag: 'hashtags',
  keyword: 'keywords',
  keywords: 'keywords',
  front_matter: 'front matter',
  alias: 'aliases',
};

/** "2 days apart", "same day", "5 hours apart" from a gap in days. */
export function gapWords(days: number): string {
  const d = Math.abs(days);
  if (d < 1 / 24) return 'same time';
  if (d < 1) {
    const h = Math.round(d * 24);
    return h >= 24 ? '1 day apart' : `${plural(h, 'hour')} apart`;
  }
  const n = Math.round(d);
  return n === 0 ? 'same day' : `${plural(n, 'day')} apart`;
}

/**
 * What a derived link's score measured, in words: the number a person can check against the
 * evidence, or the plain score when Strata does not say more (never an invented unit).
 */
export function measureWords(l: LinkLike): string {
  const s = num(l.score);
  const meta = l.metadata ?? null;
  const evidence = l.evidence ?? [];
  switch (l.relationship_type) {
    case 'SIMILAR_TO':
    case 'DUPLICATE_OF':
      return s === undefined ? '' : `similarity ${s.toFixed(2)}`;
    case 'CONTAINED_IN': {
      const c = first(meta, ['source_in_target', 'containment']) ?? s;
      return c === undefined ? '' : `${Math.floor(c * 100)} % contained`;
    }
    case 'CO_OCCURS_WITH': {
      const n = first(meta, ['count', 'chunks', 'passages', 'together']) ?? (evidence.length || undefined);
      return n === undefined ? (s === undefined ? '' : `score ${s.toFixed(2)}`) : `${plural(n, 'passage')} together`;
    }
    case 'NEAR_IN_TIME': {
      const g = first(meta, ['gap_days', 'days', 'gap']);
      if (g !== undefined) return gapWords(g);
      const h = first(meta, ['gap_hours']);
      if (h !== undefined) return gapWords(h / 24);
      return s === undefined ? '' : `score ${s.toFixed(2)}`;
    }
    case 'REFERS_TO': {
      // Where the concept was named: the document's headings, tags or keywords.
      const src = Array.isArray(meta?.sources) ? (meta.sources as unknown[]).filter((x): x is string => typeof x === 'string') : [];
      const words = [...new Set(src.map((x) => sourceWords[x] ?? x.replace(/_/g, ' ')))];
      if (words.length > 0) return `named in ${words.join(', ')}`;
      const n = evidence.length;
      return n > 0 ? `named ${n === 1 ? 'once' : `${n} times`}` : '';
    }
    default:
      return s === undefined ? '' : `score ${s.toFixed(2)}`;
  }
}

/** "SimilarDocuments@1" → "Found by SimilarDocuments (version 1); derived by Strata, not stated by a source." */
export function whyWords(enrichment: string | undefined): string {
  const e = enrichment ?? '';
  const at = e.lastIndexOf('@');
  const name = at > 0 ? e.slice(0, at) : e;
  const version = at > 0 ? e.slice(at + 1) : '';
  const by = name ? `Found by ${name}${version ? ` (version ${version})` : ''}` : 'Found by Strata';
  return `${by}; derived by Strata, not stated by a source.`;
}

/** The other end of a link seen from entity `self`, with a name to show. */
export function otherEnd(l: LinkLike, self: string): { other: LinkEnd; outbound: boolean } {
  const outbound = l.source_entity_id === self;
  const id = outbound ? l.target_entity_id : l.source_entity_id;
  const end = (outbound ? l.target : l.source) ?? null;
  return { other: { ...(end ?? {}), entity_id: id }, outbound };
}

/** The file's folder and name ("backup/a.html"): a copy often has its original's name. */
export function pathTail(path: string): string {
  const parts = path.split(/[\\/]+/).filter((p) => p !== '');
  return parts.slice(-2).join('/');
}

/** A name to show for an end: its name, else its file's name, else its ID. */
export function endName(e: LinkEnd): string {
  if (e.name) return e.name;
  if (e.path) return baseName(e.path);
  return e.entity_id;
}

/** Splits links into what sources asserted and what Strata derived. */
export function splitLinks<L extends LinkLike>(links: L[] | null | undefined): { asserted: L[]; derived: L[] } {
  const asserted: L[] = [];
  const derived: L[] = [];
  for (const l of links ?? []) (l.derived ? derived : asserted).push(l);
  return { asserted, derived };
}

/**
 * Groups the derived links of entity `self` by kind, in a fixed order, each group's rows by
 * score (highest first), ties by the other end's name and then the link ID, so the same links
 * always read the same way. Kinds Strata does not know yet get a group of their own at the end.
 * names fills in ends the link does not name (looked up by the caller).
 */
export function groupDerived<L extends LinkLike>(
  links: L[] | null | undefined,
  self: string,
  names: Record<string, { name: string; type: string }> = {},
): DerivedGroup<L>[] {
  const groups = new Map<string, DerivedGroup<L>>();
  const order: string[] = kinds.map((k) => k.key);
  for (const l of links ?? []) {
    if (!l.derived) continue;
    const { other, outbound } = otherEnd(l, self);
    const known = names[other.entity_id];
    if (!other.name && known) Object.assign(other, { name: known.name, entity_type: other.entity_type ?? known.type });
    if (other.entity_id === self) continue;
    const k = kinds.find((k) => k.type === l.relationship_type && (k.outbound === undefined || k.outbound === outbound));
    const key = k ? k.key : `type:${l.relationship_type}`;
    let g = groups.get(key);
    if (!g) {
      g = {
        key,
        title: k ? k.title : l.relationship_type.replace(/_/g, ' ').toLowerCase().replace(/^./, (c) => c.toUpperCase()),
        blurb: k ? k.blurb : '',
        rows: [],
      };
      groups.set(key, g);
      if (!k) order.push(key);
    }
    const sameText = l.relationship_type === 'DUPLICATE_OF' || l.relationship_type === 'CONTAINED_IN';
    const label = sameText && other.path ? pathTail(other.path) : endName(other);
    // A copy points at its original: from each end, say which the other one is.
    const role = l.relationship_type === 'DUPLICATE_OF' ? (outbound ? 'original' : 'copy') : '';
    g.rows.push({ link: l, other, outbound, label, role, measure: measureWords(l), why: whyWords(l.enrichment), evidence: l.evidence ?? [] });
  }
  for (const g of groups.values()) {
    // Two ends with one name (a chapter and its backup copy) are told apart by their folders.
    const seen = new Map<string, number>();
    for (const r of g.rows) seen.set(r.label, (seen.get(r.label) ?? 0) + 1);
    for (const r of g.rows) if ((seen.get(r.label) ?? 0) > 1 && r.other.path) r.label = pathTail(r.other.path);
    g.rows.sort(
      (a, b) =>
        (num(b.link.score) ?? 0) - (num(a.link.score) ?? 0) ||
        a.label.localeCompare(b.label) ||
        (a.link.id < b.link.id ? -1 : a.link.id > b.link.id ? 1 : 0),
    );
  }
  const tail = order.filter((k) => k.startsWith('type:')).sort();
  return [...kinds.map((k) => k.key), ...tail].map((k) => groups.get(k)).filter((g): g is DerivedGroup<L> => !!g);
}

/** Where one click on a piece of evidence goes: the document at its line (or chunk), or nowhere. */
export function evidenceTarget(e: EvidenceItem): { document_id: string; line?: number; chunk?: string } | null {
  if (!e.document_id) return null;
  const line = e.line_start && e.line_start > 0 ? e.line_start : undefined;
  const chunk = !line && e.kind === 'chunk' && e.id ? e.id : undefined;
  return { document_id: e.document_id, line, chunk };
}

/**
 * How a piece of evidence cites its place, short enough for a side column: "file.md:12",
 * "file.pdf p. 3", the title, or what it is. The full path goes in the link's title.
 */
export function evidencePlace(e: EvidenceItem): string {
  const c = citation({ path: e.path ? baseName(e.path) : undefined, title: e.title, line_start: e.line_start, line_end: e.line_end, page: e.page });
  if (c) return c;
  if (e.kind === 'vector') return 'the two documents’ vectors';
  return e.document_id ?? e.id;
}

/** The text shown for a piece of evidence: its quote, else the field and value it records. */
export function evidenceText(e: EvidenceItem): string {
  if (e.quote) return e.quote;
  if (e.field && e.value) return `${e.field}: ${e.value}`;
  if (e.value) return e.value;
  return '';
}

/** The Library's line about the enrich phase, or '' when nothing is waiting or failed. */
export function enrichProgress(backlog: number, failed: number): string {
  const parts: string[] = [];
  if (backlog > 0) parts.push(`Linking ${plural(backlog, 'document')}…`);
  if (failed > 0) parts.push(`linking failed for ${plural(failed, 'document')}`);
  const s = parts.join(' · ');
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : '';
}

/** The enrichments' part of Status: each enrichment's counts, and the backlog they share. */
export interface EnrichCounts {
  backlog: number;
  failed: number;
  /** Open suggestions, summed over the enrichments that raise them. */
  suggestions: number;
  links: number;
}

/** Reads the enrichments' counts from a status (zeros when it has none). */
export function enrichCounts(s: { enrichments?: EnrichStatus | null } | null | undefined): EnrichCounts {
  const e = s?.enrichments ?? null;
  const list = e?.enrichments ?? [];
  return {
    backlog: e?.backlog ?? 0,
    failed: e?.failed ?? 0,
    suggestions: list.reduce((n, x) => n + (x.suggestions ?? 0), 0),
    links: list.reduce((n, x) => n + (x.links ?? 0), 0),
  };
}

/** A suggestion's score in words, by why it was raised ("similarity 0.66"). */
export function suggestionMeasure(kind: string, score: number | undefined): string {
  if (score === undefined || !Number.isFinite(score)) return '';
  if (kind === 'related') return `evidence ${score.toFixed(2)}`;
  if (kind === 'similar' || kind === 'similarity') return `similarity ${score.toFixed(2)}`;
  if (kind === 'co_occurs' || kind === 'cooccurs' || kind === 'co_occurrence') return `co-occurrence ${score.toFixed(2)}`;
  return `score ${score.toFixed(2)}`;
}

/** Who decided a suggestion, as the rest of the UI says who added a file. */
export function decidedBy(by: string | undefined): string {
  if (!by) return '';
  if (by === 'app') return 'in the Strata app';
  if (by === 'cli') return 'from the command line';
  if (by === 'mcp') return 'by an AI client';
  if (by.startsWith('mcp:')) return `by the AI client ${by.slice(4)}`;
  return `by ${by}`;
}
