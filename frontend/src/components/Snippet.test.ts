// The Snippet component rendered on the server: matched words become <mark>, everything else is
// escaped text, whatever a document contains.
import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import Snippet from './Snippet.svelte';

describe('Snippet.svelte', () => {
  it('renders marks and escapes the rest', () => {
    const { body } = render(Snippet, { props: { text: 'a «<b>bold</b>» <script>alert(1)</script> «x»' } });
    expect(body).toContain('<mark>&lt;b>bold&lt;/b></mark>');
    expect(body).toContain('<mark>x</mark>');
    expect(body).not.toContain('<script>');
    expect(body).not.toContain('<b>');
    expect(body).toContain('data-testid="result-snippet"');
  });
});
