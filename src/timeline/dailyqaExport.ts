import type { Database } from 'better-sqlite3';
import { renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { answersOnDate } from './answers.js';

/** DailyQA's per-date file name: qa_YYMMDD.jsonl. */
export function dailyQaFileName(date: string): string {
  return `qa_${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}.jsonl`;
}

/** The JSON lines of every kept query's answer on a date, DailyQA's format. */
export function dailyQaLines(db: Database, date: string, options: { windowStart?: string } = {}): string {
  return answersOnDate(db, date, options)
    .map((row) => JSON.stringify({ id: row.id, query: row.query, answer: row.answer }))
    .map((line) => `${line}\n`)
    .join('');
}

/** Writes a file through a temporary name and a rename, so a reader never sees half of it. */
export function writeFileAtomically(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(temporary, content);
  renameSync(temporary, path);
}
