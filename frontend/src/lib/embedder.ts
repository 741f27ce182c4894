// One line that says what the embedder can do, for the search screen and the status card.

import type { EmbeddingStatus } from './types';

export interface EmbedderSummary {
  /** Short capability line, e.g. "static fallback — prefer keywords". */
  line: string;
  tone: 'ok' | 'warn' | 'info';
  /** Whether the configured (semantic) space is being built. */
  building: boolean;
  /** 0–1 of the configured space built. */
  progress: number;
}

export function embedderSummary(e: EmbeddingStatus | null | undefined): EmbedderSummary {
  if (!e) return { line: 'embedder not known yet', tone: 'info', building: false, progress: 0 };
  const total = e.reembed?.total ?? 0;
  const done = e.reembed?.done ?? 0;
  const progress = total > 0 ? Math.min(1, done / total) : 1;
  const building = e.status === 'building';
  const actual = e.actual_provider || 'static';
  let line: string;
  let tone: EmbedderSummary['tone'];
  if (e.is_fallback_active) {
    line = `${actual} fallback — prefer keywords`;
    tone = 'warn';
  } else if (e.semantic_quality === 'high') {
    line = `${actual} ${e.actual_model} — semantic: ask in your own words`;
    tone = 'ok';
  } else {
    line = `${actual} vectors — prefer keywords`;
    tone = 'info';
  }
  if (building && total > 0) line += ` · building ${e.model || 'semantic'} space ${done}/${total}`;
  return { line, tone, building, progress };
}

/** The "Configured" line: what was chosen, or that nothing was and what that means. */
export function configuredText(e: Pick<EmbeddingStatus, 'automatic' | 'provider' | 'model'>): string {
  if (e.automatic) return 'automatic (Ollama if running, else built-in)';
  if (e.provider === 'static') return 'built-in (static vectors, no Ollama)';
  return `${e.provider} · ${e.model}`;
}
