import { describe, expect, it } from 'vitest';
import { collectDropped } from './dropfiles';

const file = (name: string) => ({ name }) as unknown as File;

function fileEntry(name: string) {
  return { isFile: true, isDirectory: false, name, file: (ok: (f: File) => void) => ok(file(name)) };
}

function dirEntry(name: string, children: unknown[], batch = 2) {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader() {
      let i = 0;
      return {
        readEntries(ok: (e: unknown[]) => void) {
          const b = children.slice(i, i + batch);
          i += batch;
          ok(b);
        },
      };
    },
  };
}

const item = (entry: unknown, f: File | null = null) => ({ kind: 'file', getAsFile: () => f, webkitGetAsEntry: () => entry as never });

describe('collectDropped', () => {
  it('recurses into folders, in batches, skipping hidden files and node_modules', async () => {
    const tree = dirEntry('docs', [fileEntry('a.md'), fileEntry('.DS_Store'), dirEntry('sub', [fileEntry('b.pdf')]), dirEntry('node_modules', [fileEntry('x.js')]), fileEntry('c.txt')]);
    const files = await collectDropped({ items: [item(tree), item(fileEntry('d.csv'))] });
    expect(files.map((f) => f.name)).toEqual(['a.md', 'b.pdf', 'c.txt', 'd.csv']);
  });
  it('stops at the limit', async () => {
    const tree = dirEntry('many', Array.from({ length: 10 }, (_, i) => fileEntry(`f${i}`)));
    expect(await collectDropped({ items: [item(tree)] }, 3)).toHaveLength(3);
  });
  it('falls back to getAsFile and to files', async () => {
    expect((await collectDropped({ items: [item(null, file('plain.txt'))] })).map((f) => f.name)).toEqual(['plain.txt']);
    expect((await collectDropped({ files: [file('x'), file('y')] })).map((f) => f.name)).toEqual(['x', 'y']);
    expect(await collectDropped(null)).toEqual([]);
  });
});
