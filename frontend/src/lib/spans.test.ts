import { describe, expect, it } from 'vitest';
import { annotateChunk, annotations, byteToIndex, chunkForLine, utf8Length } from './spans';
import type { Observation } from './types';

// Real shapes from `strata --json entity observations` on a Markdown invoice.
const text =
  '# Invoice INV-42\n\nVendor: Acme Corp\nDate: 2025-01-15\nAmount due: $1,500.00\nContact: billing@acme.example\n\n#finance see https://acme.example/pay';
const chunk = { text, byte_start: 0, byte_end: 143, line_start: 1 };

const obs = (o: Partial<Observation>): Observation => ({
  id: 'obs',
  entity_id: 'ent',
  entity_type: 'document',
  schema_version: '1.0',
  source_payload_id: 'p',
  source_record_id: 'p',
  extractor: 'file:analyze',
  observed_at: '',
  specificity_score: 1,
  source_priority: 40,
  fields: {},
  created_at: '',
  ...o,
});

const observations: Observation[] = [
  obs({
    id: 'obs_doc',
    entity_id: 'ent_doc',
    span: {
      path: '/tmp/invoice.md',
      findings: [
        { byte_end: 52, byte_start: 42, kind: 'date', line: 4, value: '2025-01-15' },
        { byte_end: 104, byte_start: 84, kind: 'email', line: 6, value: 'billing@acme.example' },
        { byte_end: 114, byte_start: 106, kind: 'hashtag', line: 8, value: 'finance' },
      ],
    },
  }),
  obs({ id: 'obs_person', entity_id: 'ent_person', entity_type: 'person', fields: { email: 'billing@acme.example' }, span: { byte_start: 84, line: 6 } }),
  obs({ id: 'obs_concept', entity_id: 'ent_finance', entity_type: 'concept', fields: { name: 'finance' }, span: { byte_start: 106, line: 8 } }),
  obs({ id: 'obs_register', entity_id: 'ent_doc', span: { path: '/tmp/invoice.md' } }),
  obs({ id: 'obs_nospan', entity_id: 'ent_x', entity_type: 'company', fields: { name: 'Acme' } }),
];

describe('utf8', () => {
  it('maps byte offsets to string indexes across multi-byte characters', () => {
    const s = 'a©b€c😀d';
    expect(utf8Length(s)).toBe(1 + 2 + 1 + 3 + 1 + 4 + 1);
    const at = byteToIndex(s);
    expect(at(0)).toBe(0);
    expect(at(1)).toBe(1); // ©
    expect(at(3)).toBe(2); // b
    expect(at(4)).toBe(3); // €
    expect(at(7)).toBe(4); // c
    expect(at(8)).toBe(5); // 😀 (two UTF-16 units)
    expect(at(12)).toBe(7); // d
    expect(at(13)).toBe(8); // end
    expect(at(99)).toBe(8);
    expect(s.slice(at(8), at(12))).toBe('😀');
  });
});

describe('annotations', () => {
  it('turns findings and entity spans into annotations', () => {
    const a = annotations(observations, 'ent_doc');
    expect(a.map((x) => [x.kind, x.label, x.entityId ?? null, x.line])).toEqual([
      ['date', '2025-01-15', null, 4],
      ['email', 'billing@acme.example', null, 6],
      ['hashtag', 'finance', null, 8],
      ['person', 'billing@acme.example', 'ent_person', 6],
      ['concept', 'finance', 'ent_finance', 8],
    ]);
  });
});

describe('annotateChunk', () => {
  const lines = annotateChunk(chunk, annotations(observations, 'ent_doc'));

  it('numbers every line from line_start', () => {
    expect(lines.map((l) => l.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(lines.map((l) => l.segments.map((s) => s.text).join(''))).toEqual(text.split('\n'));
  });

  it('marks byte spans inline', () => {
    const date = lines[3].segments.find((s) => s.ann);
    expect(date?.text).toBe('2025-01-15');
    expect(date?.ann?.kind).toBe('date');
  });

  it('over the same bytes the entity link wins; the other becomes a marker', () => {
    const l6 = lines[5];
    expect(l6.segments.filter((s) => s.ann).map((s) => [s.text, s.ann!.kind])).toEqual([['billing@acme.example', 'person']]);
    expect(l6.markers.map((m) => m.kind).sort()).toEqual(['email', 'person']);
  });

  it('finds a start-only span by its label (a hashtag starts at #)', () => {
    const l8 = lines[7];
    const marked = l8.segments.filter((s) => s.ann).map((s) => s.text);
    expect(marked).toEqual(['#finance']);
    expect(l8.markers.some((m) => m.entityId === 'ent_finance')).toBe(true);
  });

  it('uses line markers when the chunk text is not the original bytes', () => {
    const other = annotateChunk({ text: 'one\ntwo', byte_start: 0, byte_end: 999, line_start: 10 }, [
      { key: 'k', kind: 'person', label: 'x', entityId: 'e', line: 11, byteStart: 5 },
    ]);
    expect(other[1].markers.map((m) => m.key)).toEqual(['k']);
    expect(other[1].segments).toEqual([{ text: 'two' }]);
  });

  it('ignores spans of other chunks', () => {
    const l = annotateChunk({ text: 'abc', byte_start: 200, byte_end: 203, line_start: 20 }, annotations(observations, 'ent_doc'));
    expect(l[0].markers).toEqual([]);
    expect(l[0].segments).toEqual([{ text: 'abc' }]);
  });

  it('keeps empty lines as one empty segment', () => {
    expect(lines[1].segments).toEqual([{ text: '' }]);
  });
});

describe('chunkForLine', () => {
  it('finds the chunk covering a line', () => {
    const chunks = [
      { line_start: 1, line_end: 3 },
      { line_start: 5, line_end: 9 },
    ];
    expect(chunkForLine(chunks, 6)).toBe(chunks[1]);
    expect(chunkForLine(chunks, 4)).toBeUndefined();
  });
});

describe('annotateChunk on a rewritten file (HTML)', () => {
  // An HTML chapter: the extracted text's lines come from file lines 488, 490 and 491, and
  // the finding's offsets index the extracted text (text_start), not the file (byte_start).
  const html = {
    text: '## Errors\n\nSee 2025-01-15 for the\nrelease.',
    byte_start: 20400,
    byte_end: 20580,
    text_start: 900,
    text_end: 942,
    line_start: 488,
    lines: [488, 488, 490, 491],
  };
  it('numbers lines with the file lines search cites, and places facts by text offsets', () => {
    const anns = annotations([
      obs({ span: { findings: [{ byte_start: 915, byte_end: 925, kind: 'date', line: 490, value: '2025-01-15' }] } }),
    ]);
    const lines = annotateChunk(html, anns);
    expect(lines.map((l) => l.number)).toEqual([488, 488, 490, 491]);
    expect(lines.map((l) => l.continued)).toEqual([false, true, false, false]);
    expect(lines[2].segments.find((s) => s.ann)?.text).toBe('2025-01-15');
    expect(lines[2].markers.map((m) => m.label)).toEqual(['2025-01-15']);
  });
});
