import { describe, expect, it } from 'vitest';
import { failedCount, newFailures, noticeBody, noticeTitle, unseenFailures } from './failures';

describe('failures', () => {
  it('counts failed documents from the status', () => {
    expect(failedCount({ documents: { analyzed: 4, failed: 2 } })).toBe(2);
    expect(failedCount({ documents: {} })).toBe(0);
    expect(failedCount(null)).toBe(0);
  });
  it('unseen is what is above the count seen, never negative', () => {
    expect(unseenFailures(3, 0)).toBe(3);
    expect(unseenFailures(3, 3)).toBe(0);
    expect(unseenFailures(4, 3)).toBe(1);
    expect(unseenFailures(1, 3)).toBe(0); // a retry succeeded
  });
  it('a failure count going up is news; the first status is not', () => {
    expect(newFailures(null, 5)).toBe(0);
    expect(newFailures(5, 7)).toBe(2);
    expect(newFailures(7, 6)).toBe(0);
  });
  it('names the newest failures', () => {
    expect(noticeTitle(['garbage.pdf'], 1)).toBe('garbage.pdf failed');
    expect(noticeBody(['garbage.pdf'], 1)).toBe('');
    expect(noticeTitle(['a', 'b', 'c', 'd'], 5)).toBe('5 files failed');
    expect(noticeBody(['a', 'b', 'c', 'd'], 5)).toBe('a, b, c and 2 more');
    expect(noticeBody(['a', 'b'], 2)).toBe('a, b');
  });
});
