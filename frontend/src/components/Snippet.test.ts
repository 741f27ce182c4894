// The Snippet component rendered on the server: highlighted words become <mark>, everything
// else is escaped text, whatever a document contains.
import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import Snippet from './Snippet.svelte';

describe('Snippet.svelte', () => {
  it('renders highlights as marks and escapes the rest', () => {
    const text = 'a <b>bold</b> <script>alert(1)</script> «x» y';
    const b = text.indexOf('<b>');
    const y = text.lastIndexOf('y');
    const { body } = render(Snippet, {
      props: { text, highlights: [{ start: b, end: b + '<b>bold</b>'.length }, { start: y, end: y + 1 }] },
    });
    expect(body).toContain('<mark>&lt;b>bold&lt;/b></mark>');
    expect(body).toContain('<mark>y</mark>');
    expect(body).toContain('«x»'); // the text's own guillemets are text, not marks
    expect(body).not.toContain('<script>');
    expect(body).not.toContain('<b>');
    expect(body).toContain('data-testid="result-snippet"');
  });
  it('renders a snippet without highlights as text', () => {
    const { body } = render(Snippet, { props: { text: 'plain <i>text</i>' } });
    expect(body).not.toContain('<mark>');
    expect(body).not.toContain('<i>');
  });
});
