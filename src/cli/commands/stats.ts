import type { Command } from 'commander';
import { answerChangeStats } from '../../timeline/answerStats.js';
import { withSession } from '../session.js';

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('per week of queries: answers changing on each day, and how often each answer changed around its creation (JSON)')
    .action(async (_flags: unknown, command: Command) => {
      await withSession(command, { write: false }, (session) => {
        process.stdout.write(`${JSON.stringify({ weeks: answerChangeStats(session.db) }, null, session.json ? undefined : 2)}\n`);
      });
    });
}
