import { InvalidArgumentError, Option } from 'commander';
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
