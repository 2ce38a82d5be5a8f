/**
 * GrowOVER's published release formats (dayoon-ko/GrowOVER README: one JSON object per line, keyed
 * by an id) as zod schemas: the release writer passes every record through them, and tests read
 * the files back with them.
 */
import { z } from 'zod';

/** Two-digit month, as the published QA files give it ("08"). */
const MonthText = z.string().regex(/^\d{2}$/);
const MonthNumber = z.number().int().min(1).max(12);
const Text = z.string().min(1);

const QaTypeName = z.enum(['SAME', 'NEW', 'CHANGED']);
const TurnTypeName = z.enum(['SAME', 'NEW', 'CONTRADICT']);

const GrowoverQa = z
  .object({
    /** wikidelta's stable item id, which predictions refer to (GrowOVER's scorer keys results by it). */
    id: Text,
    title: Text,
    type: QaTypeName,
    generated_month: MonthText,
    question: Text,
    answer: Text,
    /** The answer before the change: on CHANGED items only, which GrowOVER's scorer reads for CHANGED_DEL. */
    old_answer: Text.optional(),
    grounded_text: Text,
    start_idx: z.number().int().min(0),
    end_idx: z.number().int().min(0),
  })
  .strict()
  .refine((qa) => qa.start_idx <= qa.end_idx, 'start_idx after end_idx')
  .refine((qa) => (qa.type === 'CHANGED') === (qa.old_answer !== undefined), 'old_answer on CHANGED items, and only there');

/** A record keyed by one id; the value's shape is given. */
function keyed<T extends z.ZodType>(value: T) {
  return z.record(z.string().min(1), value).refine((record) => Object.keys(record).length === 1, 'one key per line');
}

/** qa.jsonl: article id → that article's QA items. */
export const QaLine = keyed(z.array(GrowoverQa).min(1));
/** article_dialogue.jsonl: article id → its dialogue ids. */
export const ArticleDialogueLine = keyed(z.array(Text).min(1));
/** dialogue.jsonl: dialogue id → the dialogue and its turns (turn number → turn id). */
export const DialogueLine = keyed(
  z
    .object({
      article_id: Text,
      created_month: MonthNumber,
      last_modified_month: MonthNumber,
      dialogue_type: QaTypeName,
      turn: z.record(z.string().regex(/^\d+$/), Text),
    })
    .strict(),
);
/** turn.jsonl: turn id → the turn. */
export const TurnLine = keyed(
  z
    .object({
      dialogue_id: Text,
      turn_number: z.string().regex(/^\d+$/),
      user: Text,
      expert: Text,
      grounded_sentence: Text,
      sentence_type: TurnTypeName,
      sentence_index: z.number().int().min(0),
      created_month: MonthNumber,
      created_type: QaTypeName,
    })
    .strict(),
);
