import { describe, expect, it } from 'vitest';
import { citeHref, citePlace, citeTitle, factSource, factValue, modeText, noticeText, savedText, splitAnswer } from './answer';
import type { Citation, Fact } from './types';

const cite = (n: number, over: Partial<Citation> = {}): Citation => ({
  n,
  document_id: `doc_${n}`,
  path: `/notes/n${n}.md`,
  title: `Note ${n}`,
  line_start: 10 * n,
  line_end: 10 * n + 2,
  chunk_id: `chk_${n}`,
  quote: `quote ${n}`,
  ...over,
});

describe('splitAnswer', () => {
  const cs = [cite(1), cite(2), cite(3)];
  it('turns each [n] into a citation and keeps the text between', () => {
    const parts = splitAnswer('Herons nest by the river [1]. They eat fish [2].', cs);
    expect(parts.map((p) => (p.kind === 'text' ? p.text : `<${p.n}>`)).join('')).toBe('Herons nest by the river\u00a0<1>. They eat fish\u00a0<2>.');
    const c = parts.find((p) => p.kind === 'cite');
    expect(c?.kind === 'cite' && c.cite.document_id).toBe('doc_1');
  });
  it('splits groups, [1][2] and [1, 2] alike', () => {
    const show = (s: string) =>
      splitAnswer(s, cs)
        .map((p) => (p.kind === 'text' ? p.text : `<${p.n}>`))
        .join('');
    expect(show('A [1][3].')).toBe('A\u00a0<1><3>.');
    expect(show('A [1, 3].')).toBe('A\u00a0<1><3>.');
    expect(show('A[1,2,3].')).toBe('A<1><2><3>.');
  });
  it('leaves numbers that cite nothing as text', () => {
    const parts = splitAnswer('Founded [2024]; see [9] and [2, 9].', cs);
    expect(parts.map((p) => (p.kind === 'text' ? p.text : `<${p.n}>`)).join('')).toBe('Founded [2024]; see [9] and\u00a0<2>[9].');
  });
  it('keeps line breaks and text without citations whole', () => {
    expect(splitAnswer('one\n\ntwo', cs)).toEqual([{ kind: 'text', text: 'one\n\ntwo' }]);
    expect(splitAnswer('', cs)).toEqual([]);
    expect(splitAnswer('[1]', [])).toEqual([{ kind: 'text', text: '[1]' }]);
  });
});

describe('citations', () => {
  it('open the document at the cited line, else at the chunk', () => {
    expect(citeHref(cite(2))).toBe('#/document/doc_2?line=20');
    expect(citeHref(cite(2, { line_start: 0 }))).toBe('#/document/doc_2?chunk=chk_2');
  });
  it('say where they point', () => {
    expect(citePlace(cite(1))).toBe('/notes/n1.md:10');
    expect(citePlace(cite(1, { page: 4 }))).toBe('/notes/n1.md p. 4');
    expect(citePlace(cite(1, { path: undefined }))).toBe('line 10');
    expect(citeTitle(cite(1))).toBe('Note 1 — /notes/n1.md:10\n“quote 1”');
    expect(citeTitle(cite(1, { quote: ' ' }))).toBe('Note 1 — /notes/n1.md:10');
  });
});

describe('facts', () => {
  const fact: Fact = { entity_id: 'ent_1', entity_type: 'invoice', entity_name: 'INV-42', field: 'amount', value: 1540, observation_id: 'obs_1' };
  it('show values as text', () => {
    expect(factValue(fact)).toBe('1540');
    expect(factValue({ ...fact, value: 'Berlin' })).toBe('Berlin');
    expect(factValue({ ...fact, value: { a: 1 } })).toBe('{"a":1}');
  });
  it('link to the line they came from, when a document says them', () => {
    expect(factSource(fact)).toBeNull();
    expect(factSource({ ...fact, document_id: 'doc_1', path: '/a/inv.md', line: 7 })).toEqual({ place: '/a/inv.md:7', href: '#/document/doc_1?line=7' });
    expect(factSource({ ...fact, document_id: 'doc_1' })).toEqual({ place: 'its source', href: '#/document/doc_1' });
    expect(factSource({ ...fact, agent: 'claude' })).toEqual({ place: 'submitted by claude', href: null });
  });
});

describe('mode and saving', () => {
  it('say how the answer was written', () => {
    expect(modeText({ mode: 'extractive' }).label).toBe('extractive');
    expect(modeText({ mode: 'llm', model: 'llama3.2' }).label).toBe('written by llama3.2');
    expect(modeText({ mode: 'llm' }).title).toMatch(/checked/);
  });
  it('say what saving did', () => {
    expect(savedText({})).toBe('');
    expect(savedText({ document_id: 'doc_1', created: true })).toMatch(/^Saved as a document/);
    expect(savedText({ document_id: 'doc_1', created: false })).toMatch(/saved before/);
  });
});

describe('noticeText', () => {
  it('makes a sentence of a notice', () => {
    expect(noticeText('only 2 passages matched')).toBe('Only 2 passages matched.');
    // the card says "Not found" itself
    expect(noticeText('not found: no passage says “3.9” of what the question asks')).toBe('No passage says “3.9” of what the question asks.');
    expect(noticeText('Done.')).toBe('Done.');
    expect(noticeText(undefined)).toBe('');
    expect(noticeText('  ')).toBe('');
  });
});
