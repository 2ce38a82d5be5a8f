/**
 * The marks a judge looks for: the sentences or evidence inside a paragraph or article, and the
 * word-level difference between an old sentence and a new one. Both return escaped markup, so the
 * text they mark stays inert.
 */
import { diffWords } from 'diff';
import { escapeHtml, html, Html } from './html.js';

/**
 * `text` with every occurrence of each needle wrapped in `<mark>`; overlapping or touching
 * occurrences merge into one mark. A needle not found exactly is looked for again with its
 * whitespace collapsed, since sentences are often split out of paragraphs with different spacing.
 */
export function highlight(text: string, needles: readonly string[], className = 'hit'): Html {
  const ranges = mergeRanges(needles.flatMap((needle) => occurrences(text, needle)));
  const parts: Html[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    parts.push(escapeHtml(text.slice(at, start)), html`<mark class="${className}">${text.slice(start, end)}</mark>`);
    at = end;
  }
  parts.push(escapeHtml(text.slice(at)));
  return html`${parts}`;
}

function occurrences(text: string, needle: string): Array<[number, number]> {
  const trimmed = needle.trim();
  if (trimmed === '') return [];
  const found: Array<[number, number]> = [];
  for (let at = text.indexOf(trimmed); at !== -1; at = text.indexOf(trimmed, at + trimmed.length)) found.push([at, at + trimmed.length]);
  if (found.length > 0) return found;
  const words = trimmed.split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(words.join('\\s+'), 'g');
  return [...text.matchAll(pattern)].map((match) => [match.index, match.index + match[0].length]);
}

function mergeRanges(ranges: Array<[number, number]>): Array<[number, number]> {
  const merged: Array<[number, number]> = [];
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** The words removed from `before` in `<del>` and those added in `after` in `<ins>`, in reading order. */
export function wordDiff(before: string, after: string): Html {
  return html`${diffWords(before, after).map((change) => {
    if (change.added) return html`<ins>${change.value}</ins>`;
    if (change.removed) return html`<del>${change.value}</del>`;
    return escapeHtml(change.value);
  })}`;
}
