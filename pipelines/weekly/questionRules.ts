/**
 * What a generated weekly question must be, whoever wrote it (docs/ARCHITECTURE.md §4): free of a
 * date restriction, since the date is attached to the question separately. The generate stage
 * applies it to every provider's output; a model is also told when its question breaks it.
 */
import type { QuestionRule } from '../../src/llm/weeklyTasks.js';

/** "as of 2024", "in January", "on 5 February 2025", "2024-05-01": the date is set apart from the question. */
const DATE_RESTRICTION =
  /\b(as of|since|until|by|in|on|during)\s+(early |late |mid-?)?(\d{4}\b(?![–-]\d)|(january|february|march|april|may|june|july|august|september|october|november|december)\b)|\b\d{1,2} (january|february|march|april|may|june|july|august|september|october|november|december) \d{4}\b|\b\d{4}-\d{2}-\d{2}\b/i;

export const questionProblem: QuestionRule = (question) =>
  DATE_RESTRICTION.test(question) ? 'the question must not contain a date restriction' : null;
