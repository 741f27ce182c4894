import { describe, expect, it } from 'vitest';
import {
  decidedBy,
  enrichCounts,
  enrichProgress,
  evidencePlace,
  evidenceTarget,
  evidenceText,
  gapWords,
  groupDerived,
  measureWords,
  pathTail,
  splitLinks,
  suggestionMeasure,
  whyWords,
  type LinkLike,
} from './enrich';

const link = (id: string, type: string, s: string, t: string, more: Partial<LinkLike> = {}): LinkLike => ({
  id,
  relationship_type: type,
  source_entity_id: s,
  target_entity_id: t,
  derived: true,
  enrichment: 'EmbeddingSimilarity@1',
  ...more,
});

describe('splitLinks', () => {
  it('keeps asserted and derived apart, in their order', () => {
    const a = link('r1', 'PART_OF', 'ent_a', 'ent_b', { derived: false });
    const d = link('d1', 'SIMILAR_TO', 'ent_a', 'ent_c', { score: 0.7 });
    const b = link('r2', 'REFERS_TO', 'ent_a', 'ent_d', { derived: undefined });
    expect(splitLinks([a, d, b])).toEqual({ asserted: [a, b], derived: [d] });
    expect(splitLinks(null)).toEqual({ asserted: [], derived: [] });
  });
});

describe('groupDerived', () => {
  const links = [
    link('d3', 'SIMILAR_TO', 'ent_b', 'ent_me', { score: 0.64, source: { entity_id: 'ent_b', name: 'Bravo' } }),
    link('d1', 'SIMILAR_TO', 'ent_me', 'ent_a', { score: 0.71, target: { entity_id: 'ent_a', name: 'Alpha' } }),
    link('d2', 'SIMILAR_TO', 'ent_me', 'ent_c', { score: 0.64, target: { entity_id: 'ent_c', name: 'Alpha 2' } }),
    link('d4', 'DUPLICATE_OF', 'ent_copy', 'ent_me', { score: 1, source: { entity_id: 'ent_copy', name: 'Same title', path: '/b/copy.html' } }),
    link('d5', 'CONTAINED_IN', 'ent_me', 'ent_book', { score: 1 }),
    link('d6', 'CONTAINED_IN', 'ent_small', 'ent_me', { score: 0.95 }),
    link('d7', 'FUTURE_KIND', 'ent_me', 'ent_z', { score: 0.5 }),
    link('r1', 'PART_OF', 'ent_me', 'ent_x', { derived: false }),
  ];

  it('groups by kind in a fixed order, leaving asserted links out', () => {
    const g = groupDerived(links, 'ent_me');
    expect(g.map((x) => x.title)).toEqual(['Duplicates / copies', 'Contained in', 'Contains', 'Similar documents', 'Future kind']);
    expect(g.flatMap((x) => x.rows.map((r) => r.link.id))).not.toContain('r1');
  });

  it('orders rows by score, then name, then ID, whatever the input order', () => {
    const rows = (ls: LinkLike[]) => groupDerived(ls, 'ent_me').find((x) => x.key === 'sim')!.rows.map((r) => r.link.id);
    expect(rows(links)).toEqual(['d1', 'd2', 'd3']);
    expect(rows([...links].reverse())).toEqual(['d1', 'd2', 'd3']);
  });

  it('says which way a link points and names the other end', () => {
    const g = groupDerived(links, 'ent_me');
    const dup = g[0].rows[0];
    expect(dup.outbound).toBe(false);
    expect(dup.other.entity_id).toBe('ent_copy');
    expect(dup.label).toBe('b/copy.html'); // a copy bears the original's title (often its name): its folder and file tell them apart
    expect(dup.role).toBe('copy');
    expect(pathTail('/home/me/backup/a.html')).toBe('backup/a.html');
    expect(pathTail('C:\\docs\\a.html')).toBe('docs/a.html');
    const sim = g.find((x) => x.key === 'sim')!.rows;
    expect(sim[0]).toMatchObject({ outbound: true, other: { entity_id: 'ent_a', name: 'Alpha' }, measure: 'similarity 0.71' });
    expect(sim[2]).toMatchObject({ outbound: false, other: { entity_id: 'ent_b', name: 'Bravo' } });
    expect(sim[0].why).toMatch(/EmbeddingSimilarity/);
  });

  it('tells two ends with one name apart by their folders', () => {
    const ls = [
      link('s1', 'SIMILAR_TO', 'ent_me', 'ent_a', { score: 0.7, target: { entity_id: 'ent_a', name: 'ch04.html', path: '/d/book/ch04.html' } }),
      link('s2', 'SIMILAR_TO', 'ent_me', 'ent_b', { score: 0.7, target: { entity_id: 'ent_b', name: 'ch04.html', path: '/d/backup/ch04.html' } }),
      link('s3', 'SIMILAR_TO', 'ent_me', 'ent_c', { score: 0.6, target: { entity_id: 'ent_c', name: 'ch05.html', path: '/d/book/ch05.html' } }),
    ];
    expect(groupDerived(ls, 'ent_me')[0].rows.map((r) => r.label)).toEqual(['backup/ch04.html', 'book/ch04.html', 'ch05.html']);
  });

  it('puts REFERS_TO under Concepts from a document and Named in from a concept', () => {
    const l = link('c1', 'REFERS_TO', 'ent_doc', 'ent_concept', { enrichment: 'TagConceptBridger@1' });
    expect(groupDerived([l], 'ent_doc')[0].title).toBe('Concepts');
    expect(groupDerived([l], 'ent_concept')[0].title).toBe('Named in');
  });
});

describe('measureWords', () => {
  it('says what was measured, never an invented unit', () => {
    expect(measureWords(link('x', 'SIMILAR_TO', 'a', 'b', { score: 0.7134 }))).toBe('similarity 0.71');
    expect(measureWords(link('x', 'DUPLICATE_OF', 'a', 'b', { score: 1 }))).toBe('similarity 1.00');
    expect(measureWords(link('x', 'CONTAINED_IN', 'a', 'b', { score: 0.999 }))).toBe('99 % contained');
    expect(measureWords(link('x', 'CONTAINED_IN', 'a', 'b', { score: 0.5, metadata: { source_in_target: 0.97 } }))).toBe('97 % contained');
    expect(measureWords(link('x', 'REFERS_TO', 'a', 'b', { score: 0.6, metadata: { sources: ['heading', 'tag'] } }))).toBe('named in headings, tags');
    expect(measureWords(link('x', 'REFERS_TO', 'a', 'b', { score: 0.6, evidence: [{ kind: 'chunk', id: 'c' }] }))).toBe('named once');
    expect(measureWords(link('x', 'CO_OCCURS_WITH', 'a', 'b', { score: 4.2, metadata: { count: 3 } }))).toBe('3 passages together');
    expect(
      measureWords(link('x', 'CO_OCCURS_WITH', 'a', 'b', { evidence: [{ kind: 'chunk', id: 'c1' }] })),
    ).toBe('1 passage together');
    expect(measureWords(link('x', 'NEAR_IN_TIME', 'a', 'b', { score: 0.5, metadata: { gap_days: 2 } }))).toBe('2 days apart');
    expect(measureWords(link('x', 'NEAR_IN_TIME', 'a', 'b', { score: 0.5 }))).toBe('score 0.50');
    expect(measureWords(link('x', 'SOMETHING_NEW', 'a', 'b', { score: 0.25 }))).toBe('score 0.25');
    expect(measureWords(link('x', 'SIMILAR_TO', 'a', 'b'))).toBe('');
  });

  it('words time gaps', () => {
    expect(gapWords(0)).toBe('same time');
    expect(gapWords(0.25)).toBe('6 hours apart');
    expect(gapWords(1)).toBe('1 day apart');
    expect(gapWords(-3)).toBe('3 days apart');
  });
});

describe('whyWords', () => {
  it('names the enrichment and says the link was derived', () => {
    expect(whyWords('CoOccurrence@2')).toBe('Found by CoOccurrence (version 2); derived by Strata, not stated by a source.');
    expect(whyWords(undefined)).toBe('Found by Strata; derived by Strata, not stated by a source.');
  });
});

describe('evidence', () => {
  it('opens the passage at its line, or its chunk when it has no line', () => {
    expect(evidenceTarget({ kind: 'chunk', id: 'chk_1', document_id: 'doc_1', line_start: 12, line_end: 14 })).toEqual({
      document_id: 'doc_1',
      line: 12,
      chunk: undefined,
    });
    expect(evidenceTarget({ kind: 'chunk', id: 'chk_1', document_id: 'doc_1' })).toEqual({ document_id: 'doc_1', line: undefined, chunk: 'chk_1' });
    expect(evidenceTarget({ kind: 'vector', id: 'v' })).toBeNull();
  });

  it('cites path:line and shows the quote', () => {
    const e = { kind: 'chunk', id: 'c', document_id: 'd', path: '/x/ch04-01.html', line_start: 7, quote: 'ownership rules' };
    expect(evidencePlace(e)).toBe('ch04-01.html:7');
    expect(evidenceText(e)).toBe('ownership rules');
    expect(evidenceText({ kind: 'observation', id: 'o', field: 'tags', value: 'rust' })).toBe('tags: rust');
    expect(evidencePlace({ kind: 'vector', id: 'v' })).toBe('the two documents’ vectors');
  });
});

describe('enrichProgress', () => {
  it('says what is being linked and what failed, and nothing when all is done', () => {
    expect(enrichProgress(120, 0)).toBe('Linking 120 documents…');
    expect(enrichProgress(1, 2)).toBe('Linking 1 document… · linking failed for 2 documents');
    expect(enrichProgress(0, 2)).toBe('Linking failed for 2 documents');
    expect(enrichProgress(0, 0)).toBe('');
  });
});

describe('enrichCounts', () => {
  it('sums suggestions and links, and reads the backlog', () => {
    expect(
      enrichCounts({
        enrichments: {
          enrichments: [
            { name: 'EmbeddingSimilarity', version: '1', enabled: true, reacts_to: [], links: 4, suggestions: 0 },
            { name: 'DiscoveryGap', version: '1', enabled: true, reacts_to: [], links: 0, suggestions: 3 },
          ],
          backlog: 7,
          failed: 1,
        },
      }),
    ).toEqual({ backlog: 7, failed: 1, suggestions: 3, links: 4 });
    expect(enrichCounts(null)).toEqual({ backlog: 0, failed: 0, suggestions: 0, links: 0 });
  });
});

describe('suggestions', () => {
  it('words the score by why the pair was raised, and who decided', () => {
    expect(suggestionMeasure('similar', 0.656)).toBe('similarity 0.66');
    expect(suggestionMeasure('co_occurs', 0.4)).toBe('co-occurrence 0.40');
    expect(suggestionMeasure('related', 0.7708)).toBe('evidence 0.77');
    expect(suggestionMeasure('unknown', 0.4)).toBe('score 0.40');
    expect(suggestionMeasure('similar', undefined)).toBe('');
    expect(decidedBy('app')).toBe('in the Strata app');
    expect(decidedBy('mcp:cursor')).toBe('by the AI client cursor');
    expect(decidedBy('')).toBe('');
  });
});
