/**
 * HTML built by a tagged template that escapes every interpolated value unless it is already
 * `Html`: wiki text (which may hold `<script>` or `onerror=` attributes) can then only reach a page
 * as text, and forgetting to escape takes a deliberate `Html` wrapper instead of an omission.
 */

/** A string known to be safe markup, built only by `html` or `escapeHtml`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Text as markup that shows it literally, in element content and in quoted attribute values alike. */
export function escapeHtml(text: string): Html {
  return new Html(text.replace(/[&<>"'`]/g, (char) => ESCAPES[char] ?? char));
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value)).value;
}

/** A date (`2025-03-01`) a narrow screen moves to the next line whole: the browser broke it after a hyphen. */
export function dateText(date: string): Html {
  return html`<span class="date">${date}</span>`;
}

/** `html\`<p>${text}</p>\``: the literal parts are markup, every value is escaped (arrays joined). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(out);
}
