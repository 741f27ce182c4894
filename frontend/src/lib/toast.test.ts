import { describe, expect, it } from 'vitest';
import { toasts } from './toast.svelte';

describe('toasts.update', () => {
  it('changes a toast still shown, and leaves a dismissed one gone', () => {
    toasts.clear();
    const id = toasts.push({ kind: 'success', title: 'Upload: 32 files: 30 being analysed' }, 0);
    toasts.update(id, { title: 'Upload: 32 files: 24 added, 6 being analysed' });
    expect(toasts.list.map((t) => t.title)).toEqual(['Upload: 32 files: 24 added, 6 being analysed']);
    toasts.dismiss(id);
    toasts.update(id, { title: 'back again?' });
    expect(toasts.list).toEqual([]);
  });
});
