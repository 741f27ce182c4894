import { describe, expect, it } from 'vitest';
import { configuredText, embedderSummary } from './embedder';
import type { EmbeddingStatus } from './types';

const base: EmbeddingStatus = {
  automatic: false,
  provider: 'ollama',
  model: 'nomic-embed-text',
  status: 'ready',
  actual_provider: 'static',
  actual_model: 'strata-hash-v1',
  dimensions: 256,
  is_fallback_active: true,
  semantic_quality: 'low',
  reembed: { done: 0, total: 44 },
  space: 'static/strata-hash-v1/256',
  fallback_reason: 'Ollama is not running at http://127.0.0.1:11434',
  hint: 'start Ollama and run `ollama pull nomic-embed-text`',
};

describe('embedderSummary', () => {
  it('the static fallback', () => {
    expect(embedderSummary(base)).toMatchObject({ line: 'static fallback — prefer keywords', tone: 'warn', building: false });
  });
  it('semantic and ready', () => {
    const s = embedderSummary({ ...base, is_fallback_active: false, actual_provider: 'ollama', actual_model: 'nomic-embed-text', semantic_quality: 'high', reembed: { done: 44, total: 44 } });
    expect(s).toMatchObject({ line: 'ollama nomic-embed-text — semantic: ask in your own words', tone: 'ok', progress: 1 });
  });
  it('static by choice', () => {
    expect(embedderSummary({ ...base, provider: 'static', is_fallback_active: false }).line).toBe('static vectors — prefer keywords');
  });
  it('building the semantic space', () => {
    const s = embedderSummary({ ...base, is_fallback_active: false, status: 'building', reembed: { done: 11, total: 44 } });
    expect(s.building).toBe(true);
    expect(s.progress).toBe(0.25);
    expect(s.line).toContain('building nomic-embed-text space 11/44');
  });
  it('unknown', () => {
    expect(embedderSummary(null).line).toBe('embedder not known yet');
  });
});

describe('configuredText', () => {
  it('says "automatic" when nothing was configured, not "ollama"', () => {
    expect(configuredText({ ...base, automatic: true })).toBe('automatic (Ollama if running, else built-in)');
    expect(configuredText(base)).toBe('ollama · nomic-embed-text');
    expect(configuredText({ ...base, provider: 'static' })).toBe('built-in (static vectors, no Ollama)');
  });
});
