// Search snippets are plain text; the words that matched come as highlights, offsets into the
// snippet in UTF-16 code units (backend/search.Span), which is how JavaScript strings index, so
// `snippet.slice(start, end)` is the matched word. The helpers here split a snippet into
// segments that components render as text nodes, so no snippet text ever reaches innerHTML.

export interface Segment {
  text: string;
  mark: boolean;
}

/** One matched word: [start, end) in UTF-16 code units of the snippet. */
export interface Highlight {
  start: number;
  end: number;
}

/**
 * Splits a snippet into plain and marked segments by its highlights. Highlights that are out of
 * range, empty, or overlap an earlier one are ignored (the text is shown unmarked rather than
 * cut or repeated); they need not be sorted. Adjacent segments of the same kind are merged.
 */
export function segments(snippet: string | null | undefined, highlights: Highlight[] | null | undefined): Segment[] {
  const s = snippet ?? '';
  const spans = [...(highlights ?? [])]
    .filter((h) => Number.isInteger(h.start) && Number.isInteger(h.end) && h.start >= 0 && h.end > h.start && h.end <= s.length)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Segment[] = [];
  const push = (text: string, mark: boolean) => {
    if (text === '') return;
    const last = out[out.length - 1];
    if (last && last.mark === mark) last.text += text;
    else out.push({ text, mark });
  };
  let pos = 0;
  for (const h of spans) {
    if (h.start < pos) continue; // overlaps the previous highlight
    push(s.slice(pos, h.start), false);
    push(s.slice(h.start, h.end), true);
    pos = h.end;
  }
  push(s.slice(pos), false);
  return out;
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
export function snippetToHtml(snippet: string | null | undefined, highlights: Highlight[] | null | undefined): string {
  return segments(snippet, highlights)
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
