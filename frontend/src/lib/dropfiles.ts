// Files dropped on the page in a browser, folders included (read through the entries API).

interface FileEntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath?: string;
  file?(ok: (f: File) => void, fail: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: FileEntryLike[]) => void, fail: (e: unknown) => void): void };
}

interface ItemLike {
  kind: string;
  getAsFile(): File | null;
  webkitGetAsEntry?(): FileEntryLike | null;
}

export interface DataLike {
  items?: ArrayLike<ItemLike> | null;
  files?: ArrayLike<File> | null;
}

const skip = (name: string) => name.startsWith('.') || name === 'node_modules';

async function readEntry(entry: FileEntryLike, out: File[], limit: number): Promise<void> {
  if (out.length >= limit) return;
  if (entry.isFile && entry.file) {
    if (skip(entry.name)) return;
    const f = await new Promise<File | null>((ok) => entry.file!(ok, () => ok(null)));
    if (f) out.push(f);
    return;
  }
  if (entry.isDirectory && entry.createReader) {
    if (skip(entry.name)) return;
    const reader = entry.createReader();
    // readEntries answers in batches until an empty one.
    for (;;) {
      const batch = await new Promise<FileEntryLike[]>((ok) => reader.readEntries(ok, () => ok([])));
      if (batch.length === 0) break;
      for (const e of batch) await readEntry(e, out, limit);
      if (out.length >= limit) break;
    }
  }
}

/** The files in a drop (recursing into folders, skipping hidden files), at most limit. */
export async function collectDropped(dt: DataLike | null | undefined, limit = 2000): Promise<File[]> {
  if (!dt) return [];
  const out: File[] = [];
  const items = dt.items ? Array.from(dt.items) : [];
  // Entries must be taken synchronously, before the first await (the list empties after).
  const entries = items
    .filter((i) => i.kind === 'file')
    .map((i) => ({ entry: i.webkitGetAsEntry?.() ?? null, file: i.getAsFile() }));
  if (entries.length > 0) {
    for (const { entry, file } of entries) {
      if (entry) await readEntry(entry, out, limit);
      else if (file) out.push(file);
      if (out.length >= limit) break;
    }
    return out;
  }
  return dt.files ? Array.from(dt.files).slice(0, limit) : [];
}
