/**
 * What an audit item kind is (docs/ARCHITECTURE.md §17): everything about an audit that depends on
 * what is judged, in one object, so that a new kind is one file and one line of the registry
 * (`./index.ts`). The command line, the build of an audit, the pages, the API and the report read
 * kinds only through the registry.
 */
import type { z } from 'zod';
import type { Store } from '../../store/store.js';
import type { Html } from '../html.js';

/** A term of the guidelines with what it means and one worked example. */
export interface GuidelineExample {
  term: string;
  meaning: string;
  example: string;
}

/** A key of the annotator's page (annotator.js) and what it does. */
export interface KeyHelp {
  keys: string[];
  does: string;
}

/**
 * An option of `audit create` that a kind's source reads, declared without the command line
 * library (the library sits under the shell, which builds the option from this).
 */
export interface SourceFlag {
  /** As commander spells it: `--old <snapshot>`. */
  flags: string;
  description: string;
  /** A `YYYY-MM-DD` date, checked when the command line is read. */
  date?: boolean;
  choices?: readonly string[];
  default?: string;
}

/** One item a sample may draw: its key and stratum, its content frozen only once it is drawn. */
export interface KindCandidate<Content> {
  key: string;
  stratum: string;
  freeze(): Content;
}

/** The labels a `wrong` verdict chooses the right one from, and the label proposed (never the right one). */
export interface LabelChoices {
  labels: readonly string[];
  proposed: string;
}

/**
 * An audit item kind. `Content` is `z.infer` of `content`, whose `kind` is the literal `name`;
 * `Params` is `z.infer` of `params`. Methods, not function properties, so that a kind of any
 * content is an `AuditItemKind` in the registry's list.
 */
export interface AuditItemKind<Content extends { kind: string } = { kind: string }, Params extends object = object> {
  /** The `kind` tag of its frozen content: `label`. */
  readonly name: string;
  /** `audit create --of SOURCE`, stored as the audit's source: `labels`. */
  readonly source: string;
  /** What `--of SOURCE` audits, in the option's help: `sentence labels`. */
  readonly noun: string;
  /** The frozen content: checked when an item is built and whenever it is read back (the store checks only its `kind`). */
  readonly content: z.ZodType<Content>;
  /** What an audit of this source samples from, stored in its params beside `of` and read back when the audit grows. */
  readonly params: z.ZodType<Params>;
  /** The options of `audit create` the params come from, by flag name, in `--help` order. */
  readonly flags: Readonly<Record<string, SourceFlag>>;
  /** The params from those options; `need` ends the command with a usage error naming an option left out. */
  paramsFromFlags(flags: Readonly<Record<string, unknown>>, need: (value: unknown, option: string) => string): Params;
  /** The source in words, for the line `audit create` prints: `the sentence labels of 2024-01 → 2024-02`. */
  describe(params: Params): string;
  /** Every item the store offers for these params; a `UserError` naming the command to run when there is none. */
  candidates(store: Store, params: Params): Array<KindCandidate<Content>>;
  /** What the judge is asked to confirm, in one line above the item. */
  claim(content: Content): string;
  /** The item as the judge sees it: pure, content in, escaped markup out. */
  section(content: Content): Html;
  /** The kind's part of the guidelines panel, under its heading. */
  readonly guidelines: { heading: string; examples: readonly GuidelineExample[] };
  /** Keys of the page only this kind's items use. */
  readonly keys?: readonly KeyHelp[];
  /**
   * For a kind whose items propose a label: the labels a `wrong` verdict chooses the right one
   * from. A kind without it takes the right answer as text instead.
   */
  choices?(content: Content): LabelChoices;
  /** For a kind without choices: what the right answer's box asks for, when `Right answer` alone would not say (a dialogue's turns). */
  answerPrompt?(content: Content): { label: string; placeholder: string } | null;
}
