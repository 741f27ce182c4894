import { describe, expect, it, vi } from 'vitest';
import { escape, isTyping, onEscape } from './keys';

describe('escape stack', () => {
  it('closes the topmost panel first', () => {
    const a = vi.fn();
    const b = vi.fn();
    onEscape(a);
    const offB = onEscape(b);
    expect(escape()).toBe(true);
    expect(b).toHaveBeenCalledTimes(1);
    expect(a).not.toHaveBeenCalled();
    offB(); // already popped: harmless
    expect(escape()).toBe(true);
    expect(a).toHaveBeenCalledTimes(1);
    expect(escape()).toBe(false);
  });
  it('unregistering removes a handler', () => {
    const a = vi.fn();
    const off = onEscape(a);
    off();
    expect(escape()).toBe(false);
    expect(a).not.toHaveBeenCalled();
  });
});

describe('isTyping', () => {
  const el = (tagName: string, extra: Record<string, unknown> = {}) => ({ tagName, ...extra }) as unknown as EventTarget;
  it('text fields and editors count, buttons do not', () => {
    expect(isTyping(el('INPUT', { type: 'search' }))).toBe(true);
    expect(isTyping(el('INPUT', { type: '' }))).toBe(true);
    expect(isTyping(el('TEXTAREA'))).toBe(true);
    expect(isTyping(el('SELECT'))).toBe(true);
    expect(isTyping(el('DIV', { isContentEditable: true }))).toBe(true);
    expect(isTyping(el('INPUT', { type: 'checkbox' }))).toBe(false);
    expect(isTyping(el('BUTTON'))).toBe(false);
    expect(isTyping(null)).toBe(false);
  });
});
