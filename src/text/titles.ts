/**
 * A title as MediaWiki reads it on a wiki whose titles begin with a capital (as Wikipedia's do):
 * NFC, underscores as spaces, runs of them collapsed, ends trimmed, the first character uppercased
 * unless its capital is more than one character (ß stays ß, as in MediaWiki).
 */
export function normaliseTitle(title: string): string {
  const spaced = title.normalize('NFC').replace(/[_ ]+/g, ' ').trim();
  const first = String.fromCodePoint(spaced.codePointAt(0) ?? 0x20);
  const capital = first.toUpperCase();
  return [...capital].length === 1 ? `${capital}${spaced.slice(first.length)}` : spaced;
}

/** Whether two titles name the same page under the rule above. */
export function sameTitle(a: string, b: string): boolean {
  return normaliseTitle(a) === normaliseTitle(b);
}
