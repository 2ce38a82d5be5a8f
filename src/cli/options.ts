import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseDate } from '../dates.js';
import { UserError } from '../errors.js';

/** A `YYYY-MM-DD` option value, checked when the command line is read. */
export function dateOption(flags: string, description: string): Option {
  return new Option(flags, description).argParser((value: string) => {
    try {
      parseDate(value);
      return value;
    } catch (error) {
      throw new InvalidArgumentError((error as UserError).message);
    }
  });
}

/**
 * A snapshot name, checked when the command line is read: it names files and release lines, so it
 * is one visible line without a slash, and not blank.
 */
export function snapshotNameOption(flags: string, description: string): Option {
  return new Option(flags, description).argParser((value: string) => {
    if (value.trim() === '' || value !== value.trim() || /[/\\\p{Cc}]/u.test(value)) {
      throw new InvalidArgumentError(`invalid snapshot name ${JSON.stringify(value)}: expected a visible name without slashes, line breaks or surrounding spaces, e.g. 2025-03`);
    }
    return value;
  });
}

/** Ends the command as a usage error (exit 2, one line) when two options contradict each other. */
export function refuseUsage(command: Command, message: string): never {
  command.error(message, { exitCode: 2, code: 'wikidelta.usage' });
}

/** `--llm`: which provider runs the LLM steps of a command; `also` names a step it adds to the usual ones. */
export function llmOption(also = ''): Option {
  return new Option(
    '--llm <provider>',
    `LLM provider${also}: offline rules, or openai (OPENAI_BASE_URL, OPENAI_API_KEY, WIKIDELTA_LLM_MODEL); default openai when OPENAI_API_KEY is set`,
  ).choices(['offline', 'openai']);
}

/** `--time edit|world`: which time axis answers are read on (docs/ARCHITECTURE.md §16). */
export function timeAxisOption(): Option {
  return new Option(
    '--time <axis>',
    'edit: what the page said on the date (DailyQA); world: what held in the world then, by the time-qualified statements (P580, P582, P585) of the entity\'s latest known revision',
  )
    .choices(['edit', 'world'])
    .default('edit');
}

export function integerOption(flags: string, description: string): Option {
  return new Option(flags, description).argParser((value: string) => {
    if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
    return Number(value);
  });
}

export function listOption(flags: string, description: string): Option {
  return new Option(flags, description).argParser((value: string) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );
}

/** Writes records as JSON lines (the machine format) to standard output. */
export function printJsonLines(records: Iterable<unknown>): void {
  for (const record of records) process.stdout.write(`${JSON.stringify(record)}\n`);
}
