/**
 * What a generated weekly question must be, whoever wrote it (docs/ARCHITECTURE.md §4): free of a
 * date restriction, since the date is attached to the question separately. The generate stage
 * applies it to every provider's output; a model is also told when its question breaks it.
 */
import type { QuestionRule } from '../../src/llm/weeklyTasks.js';

/** A month by its name or its usual abbreviation ("Feb.", "Sept"), as questions write it. */
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?(?![a-z])';

/**
 * The ways a question restricts itself to a time, which the date set apart from it already does:
 * "as of 2024", "as at 2024", "in January", "on 5 February 2025", "on 3 February", "February 3",
 * "in Feb. 2025", "at the end of 2024", "2024-05-01", "as of last week", "as of today". A year
 * range ("in 2024–25") names a season, not a restriction, and a year inside a name ("the 2025 Port
 * Aldwin mayoral election") is not after one of these words.
 */
const DATE_RESTRICTION = new RegExp(
  [
    `\\b(?:as of|as at|since|until|by|in|on|during|before|after)\\s+(?:early |late |mid-?)?(?:\\d{4}\\b(?![–-]\\d)|${MONTH})`,
    `\\bat the (?:end|start|beginning|close|turn) of (?:\\d{4}\\b|${MONTH})`,
    `\\b\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}`,
    `\\b${MONTH} \\d{1,2}(?:st|nd|rd|th)?\\b(?![,.]?\\d)`,
    '\\b\\d{4}-\\d{2}-\\d{2}\\b',
    '\\b(?:as of|as at) (?:today|now|yesterday|last|this|the moment)\\b',
  ].join('|'),
  'i',
);
/** "last week", "this year": in lower case only, so that a title ("This Year", a song) is no restriction. */
const RELATIVE_TIME = /\b(?:last|this|next|past) (?:week|month|year)\b/;

export const questionProblem: QuestionRule = (question) =>
  DATE_RESTRICTION.test(question) || RELATIVE_TIME.test(question) ? 'the question must not contain a date restriction' : null;
