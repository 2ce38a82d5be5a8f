/**
 * The byte order mark an editor (Windows's Notepad, "UTF-8 with BOM") writes at the start of a
 * UTF-8 file: no part of the text, so JSON read from such a file parses as the same file without it.
 */

/**
 * The text without a leading byte order mark.
 *
 * @example withoutByteOrderMark('\uFEFF{"a": 1}') === '{"a": 1}'
 */
export function withoutByteOrderMark(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}
