/**
 * How a command declares its options: once, as a map from each key of its flags type to the option
 * that sets it (docs/ARCHITECTURE.md §1), so the flags a command reads and the options it offers
 * cannot drift apart; and the option kinds several commands share.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseDate } from '../dates.js';
import { UserError } from '../errors.js';
import type { TimeAxis } from '../model/timelines.js';

/**
 * An option whose values are of type `Value` (a phantom: commander's `Option` does not carry it).
 * The typed option kinds below return one, so a flags type that says `string` for an
 * `integerOption` fails to compile; a plain `new Option(...)` fits any flag type.
 */
export type OptionFor<Value> = Option & { readonly valueType?: Value };

/**
 * A command's options, one entry per key of its flags type, in the order `--help` lists them: a
 * flag with no option, or an option no flag names, fails to compile (the missing- and
 * excess-property checks on the literal). A flag set by two options (`--previous DIR` and
 * `--no-previous`) maps to both. Shared sets are functions returning `OptionsOf<SharedFlags>`,
 * spread into the map, so each command gets its own `Option` objects; the flags type must then
 * extend `SharedFlags` (a spread's extra keys are not checked).
 */
export type OptionsOf<Flags> = { [Key in keyof Required<Flags>]: OptionFor<Required<Flags>[Key]> | readonly [OptionFor<Required<Flags>[Key]>, ...Array<OptionFor<Required<Flags>[Key]>>] };

/**
 * Adds a command's options in order. An option that sets another attribute than its key (a
 * misspelt flag, `--dry-run` under `dryrun`) is a bug, thrown when the program is built: every
 * command line, and the unit test that builds the program, meets it.
 */
export function addOptions<Flags>(command: Command, options: OptionsOf<Flags>): Command {
  for (const [key, entry] of Object.entries(options) as Array<[string, Option | readonly Option[]]>) {
    for (const option of Array.isArray(entry) ? entry : [entry as Option]) {
      if (option.attributeName() !== key) {
        throw new Error(`${command.name()}: option ${option.flags} sets "${option.attributeName()}", but is declared as the flag "${key}"`);
      }
      command.addOption(option);
    }
  }
  return command;
}

/** A `YYYY-MM-DD` option value, checked when the command line is read. */
export function dateOption(flags: string, description: string): OptionFor<string> {
  return new Option(flags, description).argParser((value: string) => {
    try {
      parseDate(value);
      return value;
    } catch (error) {
      throw new InvalidArgumentError((error as UserError).message);
    }
  });
}

/** A file to write, standard output when left out or given as `-` (read with `outputFile`). */
export function outputFileOption(flags: string, description: string): OptionFor<string> {
  return new Option(flags, `${description}; - or none: standard output`);
}

/**
 * The file an `outputFileOption` names, undefined for standard output: `-` is standard output, as
 * shell tools take it (`--out -` wrote a file named `-`).
 */
export function outputFile(out: string | undefined): string | undefined {
  return out === '-' ? undefined : out;
}

/**
 * A snapshot name, checked when the command line is read: it names files and release lines, so it
 * is one visible line without a slash, and not blank.
 */
export function snapshotNameOption(flags: string, description: string): OptionFor<string> {
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
export function llmOption(also = ''): OptionFor<string> {
  return new Option(
    '--llm <provider>',
    `LLM provider${also}: offline rules, or openai (OPENAI_BASE_URL, OPENAI_API_KEY, WIKIDELTA_LLM_MODEL); default openai when OPENAI_API_KEY is set`,
  ).choices(['offline', 'openai']);
}

/** `--time edit|world`: which time axis answers are read on (docs/ARCHITECTURE.md §16). */
export function timeAxisOption(): OptionFor<TimeAxis> {
  return new Option(
    '--time <axis>',
    'edit: what the page said on the date (DailyQA); world: what held in the world then, by the time-qualified statements (P580, P582, P585) of the entity\'s latest known revision',
  )
    .choices(['edit', 'world'])
    .default('edit');
}

/** A whole-number option value, parsed to a number when the command line is read; below `min` it is refused there. */
export function integerOption(flags: string, description: string, { min }: { min?: number } = {}): OptionFor<number> {
  return new Option(flags, description).argParser((value: string) => {
    if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
    if (!Number.isSafeInteger(Number(value))) throw new InvalidArgumentError(`expected a whole number of at most ${Number.MAX_SAFE_INTEGER} in size, got ${value}`);
    if (min !== undefined && Number(value) < min) throw new InvalidArgumentError(`expected a whole number of at least ${min}, got ${value}`);
    return Number(value);
  });
}

/** A comma-separated option value, read as its non-blank items. */
export function listOption(flags: string, description: string): OptionFor<string[]> {
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
