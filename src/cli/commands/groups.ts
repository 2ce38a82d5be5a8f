import { Command } from 'commander';

/**
 * The `export` and `import` command groups. Each format registers its own subcommand on them
 * (`export dailyqa`, `export labels`, `import dailyqa`, …) from its own module.
 */
export function addGroups(program: Command): { exportGroup: Command; importGroup: Command } {
  const exportGroup = program.command('export').description('write a dataset or labels from the store in a release format');
  const importGroup = program.command('import').description('load published dataset files into the store');
  return { exportGroup, importGroup };
}
