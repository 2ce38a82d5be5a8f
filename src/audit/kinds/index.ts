/**
 * The audit item kinds, in `--of` order: the registry a new kind joins (docs/ARCHITECTURE.md §17).
 * `audit create`, the build of an audit, the pages, the API and the report find a kind here by its
 * name or its source, never by a list of their own. `registerAuditItemKind` adds one at run time
 * (a test's, an extension's), as `wtf_wikipedia`'s `extend` does.
 */
import { UserError } from '../../errors.js';
import type { AuditItemContent } from '../../model/audit.js';
import type { AuditItemKind } from './kind.js';
import { labelKind } from './label.js';
import { predictionKind } from './prediction.js';
import { qaKind } from './qa.js';
import { weeklyKind } from './weekly.js';

export const AUDIT_ITEM_KINDS = [labelKind, qaKind, weeklyKind, predictionKind] as const satisfies readonly AuditItemKind[];

/** A kind's content type, as its schema infers it. */
export type ContentOf<Kind> = Kind extends AuditItemKind<infer Content, infer _Params> ? Content : never;

/** The content of an item of a shipped kind: the union of their schemas' types. */
export type ShippedItemContent = ContentOf<(typeof AUDIT_ITEM_KINDS)[number]>;

const kinds: AuditItemKind[] = [...AUDIT_ITEM_KINDS];

/** Every kind, the shipped ones first, then those registered, in that order. */
export function auditItemKinds(): readonly AuditItemKind[] {
  return kinds;
}

/**
 * Adds a kind after the shipped ones: its name and its source must be new. Returns the undoing
 * of it (a test's kind leaves nothing behind it in a shared worker).
 *
 * @example const unregister = registerAuditItemKind(titleKind); ... unregister();
 */
export function registerAuditItemKind(kind: AuditItemKind): () => void {
  const taken = kinds.find((other) => other.name === kind.name || other.source === kind.source);
  if (taken) throw new Error(`audit item kind ${kind.name} (--of ${kind.source}) clashes with the kind ${taken.name} (--of ${taken.source})`);
  kinds.push(kind);
  return () => {
    const at = kinds.indexOf(kind);
    if (at !== -1) kinds.splice(at, 1);
  };
}

/** The kind whose items carry this `kind` tag; an unknown tag is a store written by a newer version or by hand. */
export function kindNamed(name: string): AuditItemKind {
  const kind = kinds.find((candidate) => candidate.name === name);
  if (!kind) throw new UserError('E_STORE_INVALID', `the store holds audit items of kind ${JSON.stringify(name)}, which this version does not know (it knows ${kinds.map((k) => k.name).join(', ')})`);
  return kind;
}

/** The kind `--of SOURCE` audits, or undefined. */
export function kindOfSource(source: string): AuditItemKind | undefined {
  return kinds.find((kind) => kind.source === source);
}

/**
 * An item's content read back through its kind's schema, with the kind: the store checks only
 * the `kind` tag, so everything that shows or counts an item's fields reads it through here.
 */
export function readContent(content: AuditItemContent): { kind: AuditItemKind; content: AuditItemContent } {
  const kind = kindNamed(content.kind);
  return { kind, content: kind.content.parse(content) };
}
