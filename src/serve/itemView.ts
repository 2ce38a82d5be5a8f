/**
 * One audit item as the judge sees it (docs/ARCHITECTURE.md §14): the claim to confirm and the
 * item's section, both its kind's (src/audit/kinds). Pure: content in, escaped markup out.
 */
import { kindNamed } from '../audit/kinds/index.js';
import type { Html } from '../audit/html.js';
import type { AuditItemContent } from '../model/audit.js';

/** What the judge is asked to confirm, in one line above the item. */
export function claimOf(content: AuditItemContent): string {
  return kindNamed(content.kind).claim(content);
}

export function itemView(content: AuditItemContent): Html {
  return kindNamed(content.kind).section(content);
}
