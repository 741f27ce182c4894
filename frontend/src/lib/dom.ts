// Small DOM helpers shared by screens.

/** The nearest ancestor of el that scrolls (the app's main area; the page in a bare window). */
export function scrollParent(el: HTMLElement): HTMLElement {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if ((o === 'auto' || o === 'scroll') && p.scrollHeight > 0) return p;
  }
  return document.scrollingElement as HTMLElement;
}
