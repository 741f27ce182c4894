import { describe, expect, it } from 'vitest';
import { escapeHtml, inlineCode, parseSnippet, plainSnippet, snippetToHtml } from './highlight';

describe('parseSnippet', () => {
  it('splits «marked» words from text', () => {
    expect(parseSnippet('Q3 review «Acme» raised «prices» by 8')).toEqual([
      { text: 'Q3 review ', mark: false },
      { text: 'Acme', mark: true },
      { text: ' raised ', mark: false },
      { text: 'prices', mark: true },
      { text: ' by 8', mark: false },
    ]);
  });
  it('handles marks at the edges, adjacent marks and empty input', () => {
    expect(parseSnippet('«a»«b» c')).toEqual([
      { text: 'ab', mark: true },
      { text: ' c', mark: false },
    ]);
    expect(parseSnippet('')).toEqual([]);
    expect(parseSnippet(null)).toEqual([]);
    expect(parseSnippet('«»x')).toEqual([{ text: 'x', mark: false }]);
  });
  it('keeps unbalanced guillemets as text', () => {
    expect(parseSnippet('a « b')).toEqual([{ text: 'a « b', mark: false }]);
    expect(parseSnippet('a » b')).toEqual([{ text: 'a » b', mark: false }]);
    expect(parseSnippet('«x «y» z')).toEqual([
      { text: '«x ', mark: false },
      { text: 'y', mark: true },
      { text: ' z', mark: false },
    ]);
  });
  it('plainSnippet drops the marks', () => {
    expect(plainSnippet('a «b» c')).toBe('a b c');
  });
});

describe('escaping (XSS)', () => {
  it('escapes the five HTML characters', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
  it('never lets snippet text become markup', () => {
    const html = snippetToHtml('<img src=x onerror=alert(1)> «<script>alert(2)</script>» & «ok»');
    expect(html).toBe('&lt;img src=x onerror=alert(1)&gt; <mark>&lt;script&gt;alert(2)&lt;/script&gt;</mark> &amp; <mark>ok</mark>');
    expect(html).not.toMatch(/<(img|script)/);
  });
  it('cannot be tricked by a closing mark tag in the text', () => {
    const html = snippetToHtml('«</mark><b onmouseover=alert(1)>x»');
    expect(html).toBe('<mark>&lt;/mark&gt;&lt;b onmouseover=alert(1)&gt;x</mark>');
  });
  it('keeps attribute-breaking quotes escaped', () => {
    expect(snippetToHtml(`"'><svg onload=alert(1)>`)).toBe('&quot;&#39;&gt;&lt;svg onload=alert(1)&gt;');
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
