import { describe, expect, it } from 'vitest';
import {
  defaultKind,
  evidenceHref,
  evidencePlace,
  fixable,
  fixHref,
  groupByKind,
  infoOf,
  kindOrder,
  kindTabs,
  pageCount,
  pageParam,
  pageRange,
  severityTone,
  valuesWithQuotes,
  valueText,
} from './health';
import type { LintFinding } from './types';

const finding = (id: string, kind: string): LintFinding => ({ id, kind, severity: 'low', scope: 'entities', title: id, document_ids: [], evidence: [], hint: '' });

describe('kinds', () => {
  it('are tabs in report order, counted, with zero for those the report lacks', () => {
    expect(kindTabs({ orphan: 4, contradiction: 2 })).toEqual([
      { kind: 'contradiction', count: 2 },
      { kind: 'stale', count: 0 },
      { kind: 'missing_link', count: 0 },
      { kind: 'undocumented_concept', count: 0 },
      { kind: 'orphan', count: 4 },
    ]);
    expect(kindTabs(null).map((t) => t.kind)).toEqual([...kindOrder]);
  });
  it('keep a kind this build does not know, after the known ones', () => {
    expect(kindTabs({ zebra: 1, alpha: 2 }).slice(-2)).toEqual([
      { kind: 'alpha', count: 2 },
      { kind: 'zebra', count: 1 },
    ]);
    expect(infoOf('new_kind').label).toBe('new kind');
  });
  it('open the first kind that has findings', () => {
    expect(defaultKind({ contradiction: 0, stale: 0, missing_link: 3, orphan: 1 })).toBe('missing_link');
    expect(defaultKind({})).toBe('contradiction');
  });
  it('each say what they mean', () => {
    for (const k of kindOrder) {
      expect(infoOf(k).blurb.length).toBeGreaterThan(40);
      expect(infoOf(k).none).not.toBe('');
    }
  });
  it('group findings in report order', () => {
    const g = groupByKind([finding('a', 'orphan'), finding('b', 'contradiction'), finding('c', 'orphan')]);
    expect(g.map((x) => [x.kind, x.findings.map((f) => f.id)])).toEqual([
      ['contradiction', ['b']],
      ['orphan', ['a', 'c']],
    ]);
  });
});

describe('places', () => {
  it('cite the source line, the page, the note or who sent it', () => {
    expect(evidencePlace({ document_id: 'doc_1', path: '/a/inv.md', line_start: 7 })).toBe('/a/inv.md:7');
    expect(evidencePlace({ document_id: 'doc_1', path: '/a/scan.pdf', line_start: 3, page: 2 })).toBe('/a/scan.pdf p. 2');
    expect(evidencePlace({ document_id: 'doc_1', title: 'Call notes', line_start: 2 })).toBe('Call notes:2');
    expect(evidencePlace({ document_id: 'doc_1' })).toBe('a document');
    expect(evidencePlace({ source: 'mcp:cursor' })).toBe('submitted by mcp:cursor');
    expect(evidencePlace(null)).toBe('');
  });
  it('open the document at the line, else the entity', () => {
    expect(evidenceHref({ document_id: 'doc_1', line_start: 7 })).toBe('#/document/doc_1?line=7');
    expect(evidenceHref({ document_id: 'doc_1' })).toBe('#/document/doc_1');
    expect(evidenceHref({ entity_id: 'ent_1' })).toBe('#/entity/ent_1');
    expect(evidenceHref({ source: 'cli' })).toBeNull();
  });
  it('show values as text', () => {
    expect(valueText({ value: 1500, shown: true, observation_id: 'o', observed_at: '', source: {} })).toBe('1500');
    expect(valueText({ value: 'ada@example.org', shown: false, observation_id: 'o', observed_at: '', source: {} })).toBe('ada@example.org');
  });
});

describe('fixes', () => {
  it('open a place or create a link, when they say enough to do it', () => {
    expect(fixHref({ action: 'open', label: 'Open', document_id: 'doc_1', line: 7 })).toBe('#/document/doc_1?line=7');
    expect(fixHref({ action: 'create_relationship', label: 'Link' })).toBeNull();
    expect(fixable({ action: 'open', label: 'Open', document_id: 'doc_1' })).toBe(true);
    expect(fixable({ action: 'open', label: 'Open' })).toBe(false);
    expect(fixHref({ action: 'open', label: 'Open the concept', entity_id: 'ent_7' })).toBe('#/entity/ent_7');
    expect(fixable({ action: 'open', label: 'Open the concept', entity_id: 'ent_7' })).toBe(true);
    expect(fixable({ action: 'create_relationship', label: 'Link', relationship_type: 'REFERS_TO', source_entity_id: 'a', target_entity_id: 'b' })).toBe(true);
    expect(fixable({ action: 'create_relationship', label: 'Link', relationship_type: 'REFERS_TO' })).toBe(false);
    expect(fixable({ action: 'teleport', label: '?' })).toBe(false);
  });
});

describe('paging', () => {
  it('says which findings are shown', () => {
    expect(pageRange(25, 25, 312)).toBe('26–50 of 312');
    expect(pageRange(300, 12, 312)).toBe('301–312 of 312');
    expect(pageRange(0, 3, 3)).toBe('3 findings');
    expect(pageRange(0, 1, 1)).toBe('1 finding');
    expect(pageRange(0, 0, 0)).toBe('');
  });
  it('counts pages and reads the page from the address', () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(312, 25)).toBe(13);
    expect(pageParam('3')).toBe(3);
    expect(pageParam(undefined)).toBe(1);
    expect(pageParam('-2')).toBe(1);
    expect(pageParam('x')).toBe(1);
  });
  it('knows the tones of severities', () => {
    expect([severityTone('high'), severityTone('medium'), severityTone('low')]).toEqual(['err', 'warn', 'info']);
  });
});

describe('valuesWithQuotes', () => {
  it('puts each quote beside the value from its place, and keeps the other evidence', () => {
    const f: LintFinding = {
      ...finding('c', 'contradiction'),
      values: [
        { value: 1500, shown: true, observation_id: 'o1', observed_at: '', source: { document_id: 'doc_a', line_start: 7 } },
        { value: 1540, shown: false, observation_id: 'o2', observed_at: '', source: { source: 'cursor' } },
        { value: 1600, shown: false, observation_id: 'o3', observed_at: '', source: { document_id: 'doc_b', line_start: 2 } },
      ],
      evidence: [
        { document_id: 'doc_c', line_start: 1, quote: 'elsewhere' },
        { document_id: 'doc_a', line_start: 7, quote: ' Amount: 1,500.00 ' },
        { source: 'cursor' },
      ],
    };
    const r = valuesWithQuotes(f);
    expect(r.values.map((v) => v.quote)).toEqual(['Amount: 1,500.00', '', '']);
    expect(r.rest).toEqual([{ document_id: 'doc_c', line_start: 1, quote: 'elsewhere' }]);
    expect(valuesWithQuotes(finding('x', 'orphan'))).toEqual({ values: [], rest: [] });
  });
});
