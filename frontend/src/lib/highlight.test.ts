import { describe, expect, it } from 'vitest';
import { escapeHtml, inlineCode, segments, snippetToHtml } from './highlight';

// Offsets count UTF-16 code units, as backend/search.Span documents.
const at = (s: string, word: string, from = 0) => {
  const start = s.indexOf(word, from);
  return { start, end: start + word.length };
};

describe('segments', () => {
  it('marks the highlighted words and keeps the rest as text', () => {
    const s = 'Q3 review Acme raised prices by 8';
    expect(segments(s, [at(s, 'Acme'), at(s, 'prices')])).toEqual([
      { text: 'Q3 review ', mark: false },
      { text: 'Acme', mark: true },
      { text: ' raised ', mark: false },
      { text: 'prices', mark: true },
      { text: ' by 8', mark: false },
    ]);
  });
  it('counts UTF-16 code units: an emoji is two, an accented letter one', () => {
    // Offsets as Go computes them for "Café 🎉 résumé" (the word résumé starts at unit 8).
    const s = 'Café 🎉 résumé';
    expect(segments(s, [{ start: 8, end: 14 }])).toEqual([
      { text: 'Café 🎉 ', mark: false },
      { text: 'résumé', mark: true },
    ]);
  });
  it('shows text with markers of its own as text', () => {
    const s = 'the «quoted» word and [brackets]';
    expect(segments(s, [at(s, 'word')])).toEqual([
      { text: 'the «quoted» ', mark: false },
      { text: 'word', mark: true },
      { text: ' and [brackets]', mark: false },
    ]);
  });
  it('merges adjacent highlights, sorts them, and ignores bad ones', () => {
    expect(segments('ab c', [{ start: 1, end: 2 }, { start: 0, end: 1 }])).toEqual([
      { text: 'ab', mark: true },
      { text: ' c', mark: false },
    ]);
    expect(segments('abc', [{ start: 2, end: 9 }, { start: -1, end: 1 }, { start: 1, end: 1 }])).toEqual([{ text: 'abc', mark: false }]);
    expect(segments('abcdef', [{ start: 0, end: 3 }, { start: 2, end: 5 }])).toEqual([
      { text: 'abc', mark: true },
      { text: 'def', mark: false },
    ]);
    expect(segments('', [])).toEqual([]);
    expect(segments(null, null)).toEqual([]);
    expect(segments('x', undefined)).toEqual([{ text: 'x', mark: false }]);
  });
});

describe('escaping (XSS)', () => {
  it('escapes the five HTML characters', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
  it('never lets snippet text become markup', () => {
    const s = '<img src=x onerror=alert(1)> <script>alert(2)</script> & ok';
    const html = snippetToHtml(s, [at(s, '<script>alert(2)</script>'), at(s, 'ok')]);
    expect(html).toBe('&lt;img src=x onerror=alert(1)&gt; <mark>&lt;script&gt;alert(2)&lt;/script&gt;</mark> &amp; <mark>ok</mark>');
    expect(html).not.toMatch(/<(img|script)/);
  });
  it('cannot be tricked by a closing mark tag in the text', () => {
    const s = '</mark><b onmouseover=alert(1)>x';
    const html = snippetToHtml(s, [{ start: 0, end: s.length }]);
    expect(html).toBe('<mark>&lt;/mark&gt;&lt;b onmouseover=alert(1)&gt;x</mark>');
  });
  it('keeps attribute-breaking quotes escaped', () => {
    expect(snippetToHtml(`"'><svg onload=alert(1)>`, [])).toBe('&quot;&#39;&gt;&lt;svg onload=alert(1)&gt;');
  });
});

describe('inlineCode', () => {
  it('splits `code` runs from text', () => {
    expect(inlineCode('start Ollama and run `ollama pull nomic-embed-text`; then wait')).toEqual([
      { text: 'start Ollama and run ', code: false },
      { text: 'ollama pull nomic-embed-text', code: true },
      { text: '; then wait', code: false },
    ]);
  });
  it('keeps a lone backtick as text', () => {
    expect(inlineCode('a ` b')).toEqual([{ text: 'a ` b', code: false }]);
    expect(inlineCode('`x` and ` y')).toEqual([
      { text: 'x', code: true },
      { text: ' and ` y', code: false },
    ]);
    expect(inlineCode('')).toEqual([]);
    expect(inlineCode(undefined)).toEqual([]);
  });
});
