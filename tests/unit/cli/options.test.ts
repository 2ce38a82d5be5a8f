/**
 * Options are declared once against a command's flags type (src/cli/options.ts): the program builds
 * with every option setting the flag it is declared as, and the ways the two can drift fail, at
 * compile time (the `@ts-expect-error` lines below, checked by `tsc --noEmit`) or when the program
 * is built.
 */
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { addOptions, integerOption, type OptionsOf } from '../../../src/cli/options.js';
import { buildProgram } from '../../../src/cli/program.js';

function commandsOf(command: Command, path: string[] = []): Array<{ path: string; command: Command }> {
  return [{ path: path.join(' '), command }, ...command.commands.flatMap((sub) => commandsOf(sub, [...path, sub.name()]))];
}

interface ExampleFlags {
  dryRun?: boolean;
  count: number;
  previous?: string | boolean;
}

describe('addOptions', () => {
  it('builds the whole program, each option under the flag it sets', () => {
    const commands = commandsOf(buildProgram());
    expect(commands.length).toBeGreaterThan(30);
    const options = commands.flatMap(({ command }) => command.options);
    expect(options.length).toBeGreaterThan(150);
  });

  it('adds the options in the order given, two options of one flag included', () => {
    const command = addOptions<ExampleFlags>(new Command('example'), {
      dryRun: new Option('--dry-run', 'only say what would be done'),
      count: integerOption('--count <n>', 'how many').default(3),
      previous: [new Option('--previous <dir>', 'the release before'), new Option('--no-previous', 'the first release')],
    });
    expect(command.options.map((option) => option.flags)).toEqual(['--dry-run', '--count <n>', '--previous <dir>', '--no-previous']);
    command.parse(['--count', '5', '--no-previous'], { from: 'user' });
    expect(command.opts()).toEqual({ count: 5, previous: false });
  });

  it('refuses a whole number too large to hold exactly when the line is read', () => {
    const command = addOptions<{ count: number }>(new Command('example').exitOverride().configureOutput({ outputError: () => {} }), { count: integerOption('--count <n>', 'how many') });
    expect(() => command.parse(['--count', '99999999999999999999'], { from: 'user' })).toThrow(/argument '99999999999999999999' is invalid/);
    expect(() => command.parse(['--count', '-99999999999999999999'], { from: 'user' })).toThrow(/is invalid/);
    command.parse(['--count', String(Number.MAX_SAFE_INTEGER)], { from: 'user' });
    expect(command.opts()).toEqual({ count: Number.MAX_SAFE_INTEGER });
  });

  it('refuses, as a bug, an option that sets another flag than the one it is declared as', () => {
    expect(() => addOptions<ExampleFlags>(new Command('example'), { dryRun: new Option('--dryrun'), count: integerOption('--count <n>', 'how many'), previous: new Option('--previous <dir>') })).toThrow(
      'example: option --dryrun sets "dryrun", but is declared as the flag "dryRun"',
    );
    expect(() => addOptions<ExampleFlags>(new Command('example'), { dryRun: new Option('--dry-run'), count: integerOption('--count <n>', 'how many'), previous: [new Option('--previous <dir>'), new Option('--no-prior')] })).toThrow(
      'option --no-prior sets "prior"',
    );
  });

  it('does not compile a flag without its option, an option without its flag, or a value of another type', () => {
    // @ts-expect-error the flag `previous` has no option
    const missing: OptionsOf<ExampleFlags> = { dryRun: new Option('--dry-run'), count: integerOption('--count <n>', 'how many') };
    const extra: OptionsOf<ExampleFlags> = {
      dryRun: new Option('--dry-run'),
      count: integerOption('--count <n>', 'how many'),
      previous: new Option('--previous <dir>'),
      // @ts-expect-error no flag reads `verbose`
      verbose: new Option('--verbose'),
    };
    const mistyped: OptionsOf<{ name: string }> = {
      // @ts-expect-error a whole-number option cannot set a string flag
      name: integerOption('--name <n>', 'a name'),
    };
    expect([missing, extra, mistyped].map((options) => Object.keys(options).length)).toEqual([2, 4, 1]);
  });
});
