import type { Command } from 'commander';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runWeekly, WEEKLY_STAGES } from '../../../pipelines/weekly.js';
import { addDays, formatDate, parseDate, windowFrom } from '../../dates.js';
import { demoMonthly } from '../demo/monthlyDemo.js';
import { runSync } from '../../../pipelines/sync.js';
import { exportStage, writeWeeklyRelease } from '../../../pipelines/weekly/export.js';
import { defaultReleaseDir } from '../../release/weeklyRelease.js';
import { DumpRevisionSource } from '../../sources/dumpSource.js';
import { withSession, type GlobalFlags } from '../session.js';
import { runWiki, weeklyRunInput, weeklyRunParams } from '../weeklyRunInput.js';
import { printQuestionsAndAnswers } from '../demo/demoQuestions.js';
import { packageRoot } from '../../packageRoot.js';

const repoRoot = packageRoot();
export const SAMPLE_DUMP = join(repoRoot, 'data/sample/sample-history.xml');
const DEMO_DB = join(repoRoot, 'data/demo.sqlite');
/** The sample's revisions fall in these weeks (Mondays, see data/sample/README.md). */
const FIRST_WEEK = '2025-01-06';
const WEEKS = 13;

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('runs the weekly pipeline over every week of the embedded sample, then sync and the monthly pipeline over its snapshots, offline, and prints what they found')
    .action(async (_flags: unknown, command: Command) => {
      const explicitDb = command.optsWithGlobals<GlobalFlags>().db;
      const dbPath = explicitDb ?? process.env.WIKIDELTA_DB ?? DEMO_DB;
      // The demo starts from an empty store unless told to use another one, so it always shows every stage;
      // and without the releases made from the store it removes, which would stand beside the new ones
      // (a release of another series, such as an older demo's wiki name, sends the new one to another folder).
      if (!explicitDb && !process.env.WIKIDELTA_DB) {
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
        rmSync(join(dirname(dbPath), 'releases'), { recursive: true, force: true });
      }
      // The demo is offline whatever the environment says: no API key turns it into paid calls.
      await withSession(command, { write: true, dbPath, flags: { llm: 'offline' } }, async (session) => {
        // Named from the dump's siteinfo, as weekly and sync name it: a store the demo wrote takes
        // more weeks, a sync or an export from the same dump by hand (it used to be 'sample', and
        // sync --dump on the demo's store found no tracked pages of 'samplewiki').
        const sampleWiki = await runWiki(session, {}, new DumpRevisionSource(SAMPLE_DUMP));
        const { wiki } = sampleWiki;
        // The store as the printed commands name it: the demo's own under the repository, else the one given.
        const db = session.dbPath === DEMO_DB ? 'data/demo.sqlite' : session.dbPath;
        const out = (line = '') => process.stdout.write(`${line}\n`);
        out(`wikidelta demo: the embedded sample (${SAMPLE_DUMP.replace(`${repoRoot}/`, '')}), ${WEEKS} weekly windows from ${FIRST_WEEK}`);
        out(`store: ${session.dbPath}`);
        out();
        const windows = Array.from({ length: WEEKS }, (_, week) => windowFrom(formatDate(addDays(parseDate(FIRST_WEEK), 7 * week)), 7));
        for (const window of windows) {
          const start = window.start.slice(0, 10);
          const input = { ...weeklyRunInput(session, {}, new DumpRevisionSource(SAMPLE_DUMP), sampleWiki), window };
          const outcome = await runWeekly({
            store: session.store,
            // Each week's release is written once sync has finished: a release written now would
            // ship its queries pending and its answers' intervals open, as the store no longer has them.
            stages: WEEKLY_STAGES.filter((stage) => stage !== exportStage.name),
            reporter: session.reporter,
            params: weeklyRunParams(session, input, 7),
            input,
          });
          const count = (stage: string, key: string) => outcome.run.stages.find((s) => s.stage === stage)?.counts[key] ?? 0;
          out(
            `week of ${start}: ${count('collect', 'pages')} pages changed, ${count('diff', 'changes')} infobox key changes ` +
              `(${count('diff', 'filtered')} filtered, ${count('diff', 'reverted')} reverted), ${count('select', 'data_units')} data units`,
          );
        }
        const end = windowFrom(FIRST_WEEK, 7 * WEEKS);
        // Each week's run knows its pages up to the week's end; sync brings every tracked page to the
        // sample's end, and its finalize stage classes the weeks now observed for 21 days.
        const synced = await runSync({ store: session.store, until: end.end, reporter: session.reporter, input: weeklyRunInput(session, {}, new DumpRevisionSource(SAMPLE_DUMP), sampleWiki) });
        const frequency = 'upToDate' in synced ? {} : (synced.run.stages.find((stage) => stage.stage === 'finalize')?.counts ?? {});
        for (const window of windows) {
          await writeWeeklyRelease(session.store, { wiki, window, axis: 'edit', dir: defaultReleaseDir(session.store.path, window.start, wiki), previous: 'auto' });
        }
        const units = session.store.changes(wiki).dataUnitsIn(end);
        out();
        out(`${units.length} data units selected (one per page and week, the key drawn with seed ${session.settings.seed}):`);
        for (const unit of units) {
          out(`  ${unit.timestamp.slice(0, 10)}  ${unit.title} [${unit.template}] ${unit.key}: ${clip(unit.old) || '∅'} → ${clip(unit.new)}`);
        }
        out();
        // The sample ends before the last week's end plus a day: sync holds the pages up to its newest revision (pipelines/sync.ts).
        const sourceEnd = 'upToDate' in synced ? undefined : synced.run.params.sourceEnd;
        const reached = typeof sourceEnd === 'string' ? `${sourceEnd.slice(0, 16).replace('T', ' ')} UTC, where the sample ends` : end.end.slice(0, 10);
        out(`synced every tracked page to ${reached}; update frequency: ${frequency.frequent_update ?? 0} frequent, ${frequency.infrequent_update ?? 0} infrequent, ${frequency.pending ?? 0} pending (fewer than 21 days observed)`);
        out();
        printQuestionsAndAnswers(session.store, wiki, out);
        out();
        await demoMonthly({ store: session.store, reporter: session.reporter, dump: SAMPLE_DUMP, wiki, db, out });
        out();
        out(`next: wikidelta changes --db ${db} --start 2025-01-06 --end 2025-04-06   (every change as JSON lines)`);
        out(`      wikidelta export labels --db ${db} --old 2025-03-01 --new 2025-04-01   (sentence labels as JSON lines)`);
        out(`      wikidelta status --db ${db}   (runs and stages)`);
        out();
        const auditDb = session.dbPath === DEMO_DB ? '' : ` --db ${session.dbPath}`;
        out(`audit the sample by hand: node bin/wikidelta.js audit demo${auditDb}   (two annotators' links, then their pages on http://127.0.0.1:8787)`);
      });
    });
}

function clip(text: string, length = 48): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
