// Progress in words (tested in progress.test.ts). The engine reports each phase's figures, rate
// and state (engine.Progress, engine.ImportSummary); this file only turns them into the words
// the sidebar, the Library's header, the toasts and the Recently added box show.

import type { engine } from '../../wailsjs/go/models';
import { humanize, plural, thousands } from './format';

export type Progress = engine.Progress;
export type PhaseProgress = engine.PhaseProgress;
export type ImportSummary = engine.ImportSummary;


/** "about 40 s left", "about 7 min left", "about 1 h 5 min left". */
export function timeLeft(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `about ${s} s left`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `about ${m} min left`;
  return `about ${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''} left`;
}

/** Items a second in words: "700 files/s", "2.4 documents/s", "12 documents/min". */
export function rateText(rate: number, unit: string): string {
  if (rate >= 10) return `${thousands(Math.round(rate))} ${unit}/s`;
  if (rate >= 0.95) return `${rate.toFixed(1).replace(/\.0$/, '')} ${unit}/s`;
  return `${Math.max(1, Math.round(rate * 60))} ${unit}/min`;
}

/** What a phase waits for, as a noun. */
const nouns: Record<string, string> = {
  register: 'registration',
  analyze: 'analysis',
  semantic: 'the local model',
  embed: 'embedding',
  enrich: 'linking',
};

export interface PhaseView {
  phase: string;
  /** "Registering", "Analyzing", "Linking". */
  title: string;
  /** "1,200 / 5,000", "1,200 found so far". */
  counts: string;
  /** 0–1, or null for an indeterminate bar (files still being found, nothing finished yet). */
  fraction: number | null;
  /** "700 files/s · about 6 s left", "estimating…", "waiting for analysis", "not moving", "done". */
  pace: string;
  state: string;
  failed: number;
  /** The engine's figures, for tests and tools that read the page. */
  done: number;
  total: number;
}

/** A phase of the run in words. waitsFor is the phase before it that still has work. */
export function phaseView(p: PhaseProgress, waitsFor = ''): PhaseView {
  const unit = p.phase === 'register' ? 'files' : 'documents';
  const title = humanize(p.label);
  const counts = p.counting ? `${thousands(p.done)} / ${thousands(p.total)} found so far` : `${thousands(p.done)} / ${thousands(p.total)}`;
  let pace: string;
  switch (p.state) {
    case 'moving':
      pace = `${rateText(p.rate, unit)} · ${timeLeft(p.eta_seconds)}`;
      break;
    case 'waiting':
      pace = waitsFor ? `waits for ${nouns[waitsFor] ?? waitsFor}` : 'waiting';
      break;
    case 'stalled':
      pace = 'not moving — nothing finished for a while';
      break;
    case 'done':
      pace = 'done';
      break;
    default:
      pace = 'estimating…';
  }
  // Nothing finished yet: an indeterminate bar while the phase works, an empty one while it
  // waits (never a bar that reads "0 %").
  let fraction: number | null = p.total === 0 ? null : p.done / p.total;
  if (p.state === 'waiting') fraction = 0;
  else if (p.counting || (p.done === 0 && p.state !== 'done')) fraction = null;
  return { phase: p.phase, title, counts, fraction, pace, state: p.state, failed: p.failed, done: p.done, total: p.total };
}

/** The run's phases in words, each told what it waits for. */
export function phaseViews(p: Progress | null | undefined): PhaseView[] {
  if (!p?.active) return [];
  let busy = '';
  return (p.phases ?? []).map((ph) => {
    const v = phaseView(ph, busy);
    if (ph.state !== 'done' && !busy) busy = ph.phase;
    return v;
  });
}

/** Identical to files already here: unchanged, moved, or a copy of another file. */
export function identical(s: Pick<ImportSummary, 'unchanged' | 'moved' | 'duplicates'>): number {
  return s.unchanged + s.moved + s.duplicates;
}

type Counts = Omit<ImportSummary, 'id' | 'folder' | 'finished' | 'line' | 'started_at' | 'finished_at' | 'failed_by' | 'ignored'> & {
  ignored?: { files: number; folders: number; assets?: number };
};

/**
 * The import in one line, in the same words as Go's ImportSummary.Text (both are tested on
 * backend/engine/testdata/import_lines.json): the UI renders a batch of uploads, whose counts it
 * adds up, with it.
 */
export function importText(s: Partial<Counts>): string {
  const n = (k: keyof Counts) => (s[k] as number | undefined) ?? 0;
  const parts: string[] = [];
  const add = (v: number, what: string) => v > 0 && parts.push(`${thousands(v)} ${what}`);
  add(n('added'), 'added');
  add(n('updated'), 'changed and read again');
  add(n('unchanged') + n('moved') + n('duplicates'), 'identical to files already here');
  add(n('failed'), 'failed');
  add(n('pending'), 'being analysed');
  let line = n('files') === 0 ? 'No files' : plural(n('files'), 'file');
  if (parts.length) line += ': ' + parts.join(', ');
  const ign: string[] = [];
  if (s.ignored?.files) ign.push(plural(s.ignored.files, 'file'));
  if (s.ignored?.folders) ign.push(plural(s.ignored.folders, 'folder'));
  if (ign.length) line += '; ' + ign.join(' and ') + ' ignored';
  if (s.ignored?.assets) line += '; skipped (assets): ' + thousands(s.ignored.assets);
  return line;
}

/** An import of nothing, finished: what summaries are added to. */
export function emptySummary(): ImportSummary {
  return {
    id: '',
    files: 0,
    added: 0,
    updated: 0,
    unchanged: 0,
    moved: 0,
    duplicates: 0,
    failed: 0,
    failed_by: {},
    ignored: { files: 0, folders: 0, assets: 0 },
    pending: 0,
    finished: true,
    line: '',
    started_at: '',
  };
}

/** Adds up the summaries of one batch (uploads, one import each). */
export function addSummaries(list: ImportSummary[]): ImportSummary {
  const out = emptySummary();
  const folders = new Set<string>();
  for (const s of list) {
    for (const k of ['files', 'added', 'updated', 'unchanged', 'moved', 'duplicates', 'failed', 'pending'] as const) out[k] += s[k];
    for (const [code, v] of Object.entries(s.failed_by ?? {})) out.failed_by[code] = (out.failed_by[code] ?? 0) + v;
    out.ignored.files += s.ignored?.files ?? 0;
    out.ignored.folders += s.ignored?.folders ?? 0;
    out.ignored.assets += s.ignored?.assets ?? 0;
    out.finished &&= s.finished;
    if (s.folder) folders.add(s.folder);
  }
  if (folders.size === 1) out.folder = [...folders][0];
  out.line = importText(out);
  return out;
}

/** The failures of an import by reason, for a tooltip: "UNSUPPORTED_FILE_TYPE × 3, ANALYSIS_FAILED × 1". */
export function failureReasons(s: Pick<ImportSummary, 'failed_by'>): string {
  return Object.entries(s.failed_by ?? {})
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([code, n]) => `${code} × ${thousands(n)}`)
    .join(', ');
}
