// Keyboard: Esc closes the topmost open panel or dialog; `/` focuses search (App.svelte).

const stack: (() => void)[] = [];

/** Registers a close handler for Esc; returns the function that unregisters it. */
export function onEscape(close: () => void): () => void {
  stack.push(close);
  return () => {
    const i = stack.lastIndexOf(close);
    if (i >= 0) stack.splice(i, 1);
  };
}

/** Closes the topmost panel; false when there was none. */
export function escape(): boolean {
  const close = stack.pop();
  if (!close) return false;
  close();
  return true;
}

/** Whether a key event happened while typing (so `/` must not steal it). */
export function isTyping(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== 'string') return false;
  const el = target as HTMLElement;
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag === 'input') {
    const type = ((el as HTMLInputElement).type || 'text').toLowerCase();
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes(type);
  }
  return el.isContentEditable === true;
}
