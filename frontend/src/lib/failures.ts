// Failures nobody has looked at yet, for the sidebar and the notice (tested in failures.test.ts).
// The status already counts failed documents; what is "seen" is the count when the person last
// opened the library filtered to failures, so the sidebar never says "All caught up" over a
// failure no one has looked at, and a failure count that goes up (a watched folder's file that
// failed with no one adding it by hand) raises a notice.

/** Failed documents in a status's counts. */
export function failedCount(counts: { documents?: Record<string, number> | null } | null | undefined): number {
  return counts?.documents?.failed ?? 0;
}

/** Failures not looked at: the count above the one seen (a retry that succeeded lowers both). */
export function unseenFailures(failed: number, seen: number): number {
  return Math.max(0, failed - Math.min(seen, failed));
}

/** How many new failures a status change brings (0 on the first status: nothing "arrived"). */
export function newFailures(prev: number | null, now: number): number {
  if (prev === null) return 0;
  return Math.max(0, now - prev);
}

/** The notice's title: "2 files failed" / "garbage.pdf failed". */
export function noticeTitle(names: string[], count: number): string {
  if (count === 1 && names.length === 1) return `${names[0]} failed`;
  return `${count} files failed`;
}

/** The notice's body: the newest names, the rest counted. */
export function noticeBody(names: string[], count: number): string {
  if (count === 1 && names.length === 1) return '';
  const shown = names.slice(0, 3).join(', ');
  const more = count - Math.min(names.length, 3);
  return more > 0 ? `${shown} and ${more} more` : shown;
}
