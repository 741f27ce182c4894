import { describe, expect, it } from 'vitest';
import { addSummaries, importText, phaseView, phaseViews, rateText, timeLeft, type ImportSummary, type PhaseProgress } from './progress';
import { thousands } from './format';

// The cases Go's TestImportSummaryText reads: both sides must say the same words.
import lines from '../../../backend/engine/testdata/import_lines.json?raw';

const cases: { summary: Partial<ImportSummary>; line: string }[] = JSON.parse(lines);

function ph(p: Partial<PhaseProgress>): PhaseProgress {
  return { phase: 'analyze', label: 'analyzing', done: 0, total: 0, running: 0, failed: 0, state: 'estimating' as PhaseProgress['state'], rate: 0, eta_seconds: 0, ...p };
}

describe('import line', () => {
  it('says what Go says, for the same counts', () => {
    expect(cases.length).toBeGreaterThan(4);
    for (const c of cases) expect(importText(c.summary)).toBe(c.line);
  });
  it('adds up a batch of uploads', () => {
    const one = (p: Partial<ImportSummary>): ImportSummary =>
      ({ id: 'x', files: 1, added: 0, updated: 0, unchanged: 0, moved: 0, duplicates: 0, failed: 0, failed_by: {}, ignored: { files: 0, folders: 0 }, pending: 0, finished: true, line: '', started_at: '', folder: '/up', ...p }) as ImportSummary;
    const s = addSummaries([one({ added: 1 }), one({ duplicates: 1 }), one({ failed: 1, failed_by: { UNSUPPORTED_FILE_TYPE: 1 } }), one({ pending: 1, finished: false })]);
    expect(s.line).toBe('4 files: 1 added, 1 identical to files already here, 1 failed, 1 being analysed');
    expect(s.finished).toBe(false);
    expect(s.folder).toBe('/up');
    expect(s.failed_by).toEqual({ UNSUPPORTED_FILE_TYPE: 1 });
  });
});

describe('phase in words', () => {
  it('formats counts, rates and time left', () => {
    expect(thousands(5000)).toBe('5,000');
    expect(thousands(1234567)).toBe('1,234,567');
    expect(timeLeft(6)).toBe('about 6 s left');
    expect(timeLeft(400)).toBe('about 7 min left');
    expect(timeLeft(3900)).toBe('about 1 h 5 min left');
    expect(rateText(700.4, 'files')).toBe('700 files/s');
    expect(rateText(2.44, 'documents')).toBe('2.4 documents/s');
    expect(rateText(0.2, 'documents')).toBe('12 documents/min');
  });
  it('shows a rate and time left only when the phase moves', () => {
    const moving = phaseView(ph({ phase: 'register', label: 'registering', done: 1200, total: 5000, state: 'moving' as PhaseProgress['state'], rate: 700, eta_seconds: 6 }));
    expect(moving).toMatchObject({ title: 'Registering', counts: '1,200 / 5,000', pace: '700 files/s · about 6 s left', fraction: 0.24 });
    expect(phaseView(ph({ done: 10, total: 50 })).pace).toBe('estimating…');
    expect(phaseView(ph({ done: 10, total: 50, state: 'stalled' as PhaseProgress['state'], rate: 3, eta_seconds: 9 })).pace).not.toMatch(/left/);
    expect(phaseView(ph({ phase: 'enrich', label: 'linking', total: 50, state: 'waiting' as PhaseProgress['state'] }), 'analyze').pace).toBe('waits for analysis');
  });
  it('never shows 0 % while files are being found or nothing has finished yet', () => {
    expect(phaseView(ph({ phase: 'register', label: 'registering', done: 0, total: 300, counting: true })).fraction).toBeNull();
    expect(phaseView(ph({ phase: 'register', label: 'registering', done: 0, total: 300 })).fraction).toBeNull();
    expect(phaseView(ph({ phase: 'enrich', label: 'linking', done: 0, total: 300, state: 'waiting' as PhaseProgress['state'] })).fraction).toBe(0);
    expect(phaseView(ph({ phase: 'register', label: 'registering', done: 120, total: 300, counting: true })).counts).toBe('120 / 300 found so far');
  });
  it('tells a waiting phase what it waits for', () => {
    const v = phaseViews({ active: true, phases: [ph({ phase: 'register', label: 'registering', done: 5000, total: 5000, state: 'done' as PhaseProgress['state'] }), ph({ done: 5, total: 4900 }), ph({ phase: 'enrich', label: 'linking', total: 4900, state: 'waiting' as PhaseProgress['state'] })] });
    expect(v.map((x) => x.pace)).toEqual(['done', 'estimating…', 'waits for analysis']);
    expect(phaseViews({ active: false, phases: [] })).toEqual([]);
  });
});
