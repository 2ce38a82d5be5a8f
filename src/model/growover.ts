/**
 * GrowOVER items (docs/ARCHITECTURE.md §7.4, §7.5): QA items and dialogues grounded in snapshot
 * sentences, their evidence per snapshot, retirements and rejected generations. Plain data shared
 * by the monthly stages, the store, the release and the demo.
 */
import { z } from 'zod';
import type { Provenance } from '../model.js';
import type { SentenceLabelName } from './labels.js';

export type QaType = 'initial' | 'new' | 'changed';
export type TurnType = 'initial' | 'unchanged' | 'new' | 'changed';
export type ItemKind = 'qa' | 'turn';
export type GrowoverStage = 'maintain' | 'generate';
export type ItemStatus = 'active' | 'retired';

/** Evidence as stored: a JSON array of sentence indices. */
export const EvidenceIndices = z.array(z.number().int());

/** A dialogue turn's item id: "dialogue id#turn". */
export function turnItemId(dialogueId: string, turn: number): string {
  return `${dialogueId}#${turn}`;
}

export interface QaItem {
  id: string;
  type: QaType;
  question: string;
  answer: string;
  /** CHANGED items: the answer of the old wording, and that wording. */
  oldAnswer: string | null;
  oldText: string | null;
  evidence: number[];
  provenance: Provenance;
}

export interface DialogueItem {
  id: string;
  type: 'initial' | 'new';
  paragraph: number;
  provenance: Provenance;
  turns: Array<{ user: string; expert: string; type: TurnType; evidence: number }>;
}

export interface Reject {
  id: string;
  kind: 'qa' | 'dialogue';
  type: string;
  reason: string;
  reply: unknown;
  provenance: Provenance;
}

/** An item (QA id, or "dialogue id#turn") with its evidence in some snapshot. */
export interface EvidenceState {
  itemId: string;
  kind: ItemKind;
  indices: number[];
}

/** An active item as maintenance sees it: with its answer when it is a QA item. */
export interface ActiveItem extends EvidenceState {
  answer: string | null;
}

export interface ArticleRef {
  snapshot: string;
  month: string;
  pageId: number;
  title: string;
}

/** A sentence of the new version as labeled against the old one. */
export interface LabeledSentence {
  index: number;
  label: SentenceLabelName;
  oldIndices: number[];
}

export interface LabeledPair {
  newPageId: number;
  oldPageId: number | null;
  title: string;
}

/** Where an item stands in one snapshot: its type there and its evidence in the article. */
export interface ItemState {
  type: TurnType;
  pageId: number;
  indices: number[];
}

/** A stored QA item with its state in the snapshot it was read for (null: retired there). */
export interface QaRecord {
  id: string;
  snapshot: string;
  month: string;
  pageId: number;
  type: QaType;
  question: string;
  answer: string;
  oldAnswer: string | null;
  oldText: string | null;
  status: ItemStatus;
  retiredSnapshot: string | null;
  retiredReason: string | null;
  provenance: Provenance;
  now: ItemState | null;
}

/** A stored dialogue turn with its state in the snapshot it was read for (null: retired there). */
export interface TurnRecord {
  dialogueId: string;
  turn: number;
  user: string;
  expert: string;
  type: TurnType;
  status: ItemStatus;
  retiredSnapshot: string | null;
  retiredReason: string | null;
  now: ItemState | null;
}

export interface DialogueRecord {
  id: string;
  snapshot: string;
  month: string;
  pageId: number;
  type: 'initial' | 'new';
  paragraph: number;
  provenance: Provenance;
}

export interface RejectRecord extends Reject {
  snapshot: string;
  pageId: number;
  title: string;
}

/** A QA item of one article in one snapshot: active with its evidence there, or retired there (indices null). */
export interface ArticleQaAt {
  id: string;
  question: string;
  answer: string;
  oldAnswer: string | null;
  /** The item's type in the snapshot, or "retired". */
  type: string;
  indices: number[] | null;
  retiredReason: string | null;
}
