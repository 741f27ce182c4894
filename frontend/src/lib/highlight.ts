// Search snippets mark matched words as «word» (backend/search). The UI renders each marked run
// as <mark> and everything else as text: the helpers here split a snippet into segments that
// components render as text nodes, so no snippet text ever reaches innerHTML.

export interface Segment {
  text: string;
  mark: boolean;
}

const OPEN = '«';
const CLOSE = '»';

/**
 * Splits a snippet into plain and marked segments. An unmatched « marks nothing (it is kept as
 * text), a stray » is kept as text, and empty marks are dropped; adjacent segments of the same
 * kind are merged.
 */
export function parseSnippet(snippet: string | null | undefined): Segment[] {
  const s = snippet ?? '';
  const out: Segment[] = [];
  const push = (text: string, mark: boolean) => {
    if (text === '') return;
    const last = out[out.length - 1];
    if (last && last.mark === mark) last.text += text;
    else out.push({ text, mark });
  };
  let i = 0;
  while (i < s.length) {
    const open = s.indexOf(OPEN, i);
    if (open < 0) {
      push(s.slice(i), false);
      break;
    }
    const close = s.indexOf(CLOSE, open + 1);
    if (close < 0) {
      push(s.slice(i), false);
      break;
    }
    // A second « before the closing »: the first one is literal text.
    const reopen = s.indexOf(OPEN, open + 1);
    if (reopen >= 0 && reopen < close) {
      push(s.slice(i, reopen), false);
      i = reopen;
      continue;
    }
    push(s.slice(i, open), false);
    push(s.slice(open + 1, close), true);
    i = close + 1;
  }
  return out;
}

/** The snippet without its marks (for titles and copying). */
export function plainSnippet(snippet: string | null | undefined): string {
  return parseSnippet(snippet)
    .map((s) => s.text)
    .join('');
}

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML (element content and quoted attributes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => entities[c]);
}

/**
 * The snippet as an HTML string with every character escaped except the <mark> elements this
 * function writes itself. The components render segments instead; this exists for places that
 * need a string (copying as HTML) and pins the escaping rules in tests.
 */
export function snippetToHtml(snippet: string | null | undefined): string {
  return parseSnippet(snippet)
    .map((s) => (s.mark ? `<mark>${escapeHtml(s.text)}</mark>` : escapeHtml(s.text)))
    .join('');
}

export interface CodeSegment {
  text: string;
  code: boolean;
}

/** Splits hint text such as "run `ollama pull x`" into text and `code` runs. */
export function inlineCode(text: string | null | undefined): CodeSegment[] {
  const s = text ?? '';
  const parts = s.split('`');
  if (parts.length < 3) return s ? [{ text: s, code: false }] : [];
  const out: CodeSegment[] = [];
  // With an odd count of backticks the last one is literal.
  const pairs = parts.length % 2 === 1 ? parts.length : parts.length - 1;
  for (let i = 0; i < pairs; i++) {
    if (parts[i] !== '') out.push({ text: parts[i], code: i % 2 === 1 });
  }
  if (pairs < parts.length) {
    const rest = '`' + parts.slice(pairs).join('`');
    const last = out[out.length - 1];
    if (last && !last.code) last.text += rest;
    else out.push({ text: rest, code: false });
  }
  return out;
}
