import { afterEach, describe, expect, it, vi } from 'vitest';

// The failures notice groups the failures of one import: the status counts them a batch at a
// time, and each batch used to push a toast of its own (a stack of red toasts for the fonts and
// images of one watched website).
const pages: { documents: { document_id: string; path: string; title: string }[] }[] = [];
vi.mock('./api', () => ({ api: { documents: vi.fn(async () => pages.shift()) } }));

const { failures } = await import('./failures.svelte');
const { toasts } = await import('./toast.svelte');

const status = (failed: number) => ({ counts: { documents: { failed } } }) as never;
const docs = (...names: string[]) => ({ documents: names.map((n) => ({ document_id: 'doc_' + n, path: '/site/' + n, title: n })) });

afterEach(() => toasts.clear());

describe('failures notice', () => {
  it('counts up one toast while it is shown', async () => {
    toasts.clear();
    await failures.check(status(0));
    pages.push(docs('a.woff'), docs('b.png', 'c.png'), docs('d.zip'));
    await failures.check(status(1));
    await failures.check(status(3));
    await failures.check(status(4));
    expect(toasts.list).toHaveLength(1);
    expect(toasts.list[0].title).toBe('4 files failed');
    expect(toasts.list[0].body).toBe('d.zip, b.png, c.png and 1 more');
  });
});
