// A document's lifecycle as chips (ADR-028): registered → analyzed → semantic, or failed/removed.
// The status is the document's overall state; phase_register/analyze/semantic each say where that
// phase is: pending | queued | running | done | skipped | failed.

import { storedError } from './errors';
import type { DocStatus, Document, ErrorBody } from './types';

export type ChipState = 'done' | 'active' | 'waiting' | 'skipped' | 'failed' | 'removed';

export interface Chip {
  key: DocStatus;
  label: string;
  state: ChipState;
  title: string;
}

type PhaseFields = Pick<Document, 'status' | 'phase_register' | 'phase_analyze' | 'phase_semantic'> & {
  last_error?: unknown;
  /** With these, a skipped analysis says why ("duplicate", "empty") instead of "analyzed". */
  duplicate_of?: string;
  size?: number;
  kind?: string;
};

/** Why the analysis of a document that did not fail was skipped, in one word and a sentence. */
function skippedAnalysis(d: PhaseFields): { label: string; title: string } {
  if (d.duplicate_of) return { label: 'duplicate', title: 'Analyze: skipped — the same content is already stored; not read again' };
  if (d.kind === 'file' && d.size === 0) return { label: 'empty', title: 'Analyze: skipped — the file is empty, nothing to index' };
  return { label: 'not analyzed', title: 'Analyze: skipped' };
}

const busy = new Set(['queued', 'running', 'pending']);

function stateOf(phase: string | undefined): ChipState {
  switch (phase) {
    case 'done':
      return 'done';
    case 'running':
      return 'active';
    case 'queued':
    case 'pending':
      return 'waiting';
    case 'failed':
      return 'failed';
    default:
      return 'skipped';
  }
}

const describe: Record<ChipState, string> = {
  done: 'done',
  active: 'running now',
  waiting: 'waiting in the queue',
  skipped: 'skipped',
  failed: 'failed',
  removed: 'removed',
};

/** The chips shown for a document, in phase order. */
export function phaseChips(d: PhaseFields): Chip[] {
  const chips: Chip[] = [];
  const reg = stateOf(d.phase_register);
  const ana = stateOf(d.phase_analyze);
  const sem = stateOf(d.phase_semantic);
  const failed = d.status === 'failed';
  // A failed phase is shown by the "failed" chip (with the error), not as a red phase chip.
  if (reg !== 'failed') {
    chips.push({ key: 'registered', label: 'registered', state: reg, title: `Register: ${describe[reg]}` });
    if (ana !== 'failed' && !(failed && ana === 'skipped')) {
      const skipped = ana === 'skipped' && !failed ? skippedAnalysis(d) : null;
      chips.push({
        key: 'analyzed',
        label: skipped ? skipped.label : ana === 'active' ? 'analyzing' : 'analyzed',
        state: ana,
        title: skipped ? skipped.title : `Analyze (text, chunks, facts): ${describe[ana]}`,
      });
    }
    if (!failed || sem === 'done') {
      chips.push({
        key: 'semantic',
        label: 'semantic',
        state: sem,
        title:
          sem === 'skipped'
            ? 'Semantic (local LLM): skipped — no local model, or no spec for this document type'
            : `Semantic (local LLM): ${describe[sem]}`,
      });
    }
  }
  if (failed) {
    const err = storedError(d.last_error);
    const unsupported = err?.code === 'UNSUPPORTED_FILE_TYPE';
    chips.push({ key: 'failed', label: unsupported ? 'not supported' : 'failed', state: 'failed', title: err ? `${err.code}: ${err.message}` : 'failed' });
  }
  if (d.status === 'removed') {
    chips.push({ key: 'removed', label: 'removed', state: 'removed', title: 'The file is gone; its history stays' });
  }
  return chips;
}

/** Whether any phase of the document is still waiting or running. */
export function isBusy(d: PhaseFields): boolean {
  if (d.status === 'failed' || d.status === 'removed') return false;
  return (
    busy.has(d.phase_register) ||
    busy.has(d.phase_analyze) ||
    (busy.has(d.phase_semantic) && d.phase_analyze === 'done')
  );
}

/** 0–1 progress through the phases that will run (for the row's progress bar). */
export function docProgress(d: PhaseFields): number {
  const phases = [d.phase_register, d.phase_analyze, d.phase_semantic].filter((p) => p !== 'skipped');
  if (phases.length === 0) return 1;
  let score = 0;
  for (const p of phases) {
    if (p === 'done' || p === 'failed') score += 1;
    else if (p === 'running') score += 0.5;
  }
  return score / phases.length;
}

/** The document's error (last_error is a stored envelope), or null. */
export function docError(d: { last_error?: unknown }): ErrorBody | null {
  return storedError(d.last_error);
}
