import { describe, expect, it } from 'vitest';
import { docError, docProgress, isBusy, phaseChips } from './phases';

const doc = (status: string, r: string, a: string, s: string, last_error?: unknown) => ({
  status,
  phase_register: r,
  phase_analyze: a,
  phase_semantic: s,
  last_error,
});
const summary = (d: ReturnType<typeof doc>) => phaseChips(d).map((c) => `${c.key}:${c.state}`);

describe('phaseChips', () => {
  it('an analysed document without a local LLM', () => {
    expect(summary(doc('analyzed', 'done', 'done', 'skipped'))).toEqual(['registered:done', 'analyzed:done', 'semantic:skipped']);
  });
  it('work in progress', () => {
    expect(summary(doc('registered', 'done', 'queued', 'pending'))).toEqual(['registered:done', 'analyzed:waiting', 'semantic:waiting']);
    const running = phaseChips(doc('registered', 'done', 'running', 'pending'));
    expect(running[1]).toMatchObject({ key: 'analyzed', label: 'analyzing', state: 'active' });
    expect(summary(doc('analyzed', 'done', 'done', 'running'))).toEqual(['registered:done', 'analyzed:done', 'semantic:active']);
  });
  it('a semantic document', () => {
    expect(summary(doc('semantic', 'done', 'done', 'done'))).toEqual(['registered:done', 'analyzed:done', 'semantic:done']);
  });
  it('a file that could not be registered shows only "failed", with the error', () => {
    const chips = phaseChips(
      doc('failed', 'failed', 'skipped', 'skipped', { error: { code: 'UNSUPPORTED_FILE_TYPE', message: 'blob.bin is not a format Strata reads' } }),
    );
    expect(chips.map((c) => c.key)).toEqual(['failed']);
    expect(chips[0].title).toBe('UNSUPPORTED_FILE_TYPE: blob.bin is not a format Strata reads');
    expect(chips[0].label).toBe('not supported');
  });
  it('a skipped analysis says why, never a hollow "analyzed"', () => {
    const dup = phaseChips({ ...doc('analyzed', 'done', 'skipped', 'skipped'), duplicate_of: 'doc_0', kind: 'file', size: 10 });
    expect(dup[1]).toMatchObject({ key: 'analyzed', label: 'duplicate', state: 'skipped' });
    const empty = phaseChips({ ...doc('analyzed', 'done', 'skipped', 'skipped'), kind: 'file', size: 0 });
    expect(empty[1].label).toBe('empty');
    expect(phaseChips(doc('analyzed', 'done', 'skipped', 'skipped'))[1].label).toBe('not analyzed');
  });
  it('a failed analysis keeps "registered" and adds "failed"', () => {
    expect(summary(doc('failed', 'done', 'failed', 'skipped'))).toEqual(['registered:done', 'failed:failed']);
  });
  it('a removed document', () => {
    expect(summary(doc('removed', 'done', 'done', 'skipped'))).toEqual(['registered:done', 'analyzed:done', 'semantic:skipped', 'removed:removed']);
  });
  it('unknown phase values read as skipped', () => {
    expect(phaseChips(doc('analyzed', 'done', '', 'weird'))[1].state).toBe('skipped');
  });
});

describe('isBusy and docProgress', () => {
  it('busy while a phase waits or runs', () => {
    expect(isBusy(doc('registered', 'done', 'queued', 'pending'))).toBe(true);
    expect(isBusy(doc('analyzed', 'done', 'done', 'queued'))).toBe(true);
    expect(isBusy(doc('analyzed', 'done', 'done', 'skipped'))).toBe(false);
    expect(isBusy(doc('failed', 'done', 'queued', 'pending'))).toBe(false);
    // semantic waits on analysis: not busy if analysis did not finish
    expect(isBusy(doc('registered', 'done', 'skipped', 'pending'))).toBe(false);
  });
  it('progress counts finished phases, half for running', () => {
    expect(docProgress(doc('registered', 'done', 'queued', 'skipped'))).toBe(0.5);
    expect(docProgress(doc('registered', 'done', 'running', 'skipped'))).toBe(0.75);
    expect(docProgress(doc('analyzed', 'done', 'done', 'skipped'))).toBe(1);
    expect(docProgress(doc('x', 'skipped', 'skipped', 'skipped'))).toBe(1);
  });
  it('docError reads last_error', () => {
    expect(docError({ last_error: { error: { code: 'A_B', message: 'm', hint: 'h' } } })?.hint).toBe('h');
    expect(docError({})).toBeNull();
  });
});

