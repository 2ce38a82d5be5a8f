/**
 * The leaderboard as files: `README.md` (Markdown tables), `index.html` (the same tables with the
 * figures inline, one self-contained page) and `leaderboard.json`, beside the figures as SVG. The
 * tables are built once as rows of cells, so the two pages cannot disagree.
 */
import { F1_BY_DAYS, OUTDATED_BY_DAYS, scoreByDaysChart } from '../plots/charts.js';
import { DAY_BIN_ORDER } from './weeklyScores.js';
import { WEEKLY_METRICS } from './metrics/index.js';
import { figuresMarkdown, renderFigures, type Figure } from '../plots/datasetFigures.js';
import type { Leaderboard } from './leaderboard.js';
import type { GrowoverGroupScores } from './growoverScores.js';
import { reportJson } from './reportJson.js';

interface Table {
  title: string;
  note: string;
  header: string[];
  rows: string[][];
}

/** Scores are percentages already; one decimal, as RealTimeQA's board shows them. */
function percent(value: number): string {
  return value.toFixed(1);
}

function withInterval(value: number, [low, high]: [number, number]): string {
  return `${percent(value)} [${percent(low)}, ${percent(high)}]`;
}

/** A GrowOVER group's rate with its interval; '–' for a group without items (a snapshot with no CHANGED item), which has no rate. */
function groupCell(scores: GrowoverGroupScores, measure: 'em' | 'f1' | 'current' | 'outdated' | 'wrong'): string {
  return scores.n === 0 ? '–' : withInterval(scores[measure], scores.ci[measure]);
}

/** The weekly table's metric columns: F1 first, as the board ranks by it, then the registry's others in order. */
const BOARD_METRICS = [...WEEKLY_METRICS].sort((a, b) => Number(b.name === 'f1') - Number(a.name === 'f1'));

function tables(board: Leaderboard): Table[] {
  const result: Table[] = [];
  if (board.weekly.length > 0) {
    const after = board.after === null ? '' : ` Only answers that changed on or after ${board.after} are scored (--after).`;
    const world = board.time === 'world' ? ' The gold is on world time: what held in the world on the date, by the time-qualified statements of the entity\'s latest known revision (--time world).' : '';
    result.push({
      title: 'DailyQA (weekly)',
      note:
        `Every system is scored on the same items: on each of ${board.dates.join(', ')}, every kept query whose answer that day is known (a value or a known absence), whichever week wrote it.${after}${world} ` +
        `Ranked by F1 (SQuAD's token F1); EM, F1 and SM in percent with 95% bootstrap intervals by query (${board.resamples} resamples, seed ${board.seed}), each the best over the answer and its aliases. ` +
        'Each answer with a value is current (it gives the value in effect on the date), outdated (a value that held before), future (one that held only later; the rest to 100) or wrong. ' +
        'Missing predictions count as wrong; "no answer" is the share of queries without a value on the date that the system said it could not answer, with their number in brackets; "n" counts the answers with a value, "missing" the items of both kinds that the system did not predict; "unknown" answers are not scored; "outside" counts predictions for ids or dates the board does not score.',
      header: ['rank', 'system', ...BOARD_METRICS.map((metric) => metric.name.toUpperCase()), 'current', 'outdated', 'wrong', 'no answer', 'n', 'queries', 'missing', 'unknown', 'outside'],
      rows: board.weekly.map((entry) => [
        String(entry.rank),
        entry.system,
        ...BOARD_METRICS.map((metric) => withInterval(entry[metric.name], entry.ci[metric.name])),
        withInterval(entry.current, entry.ci.current),
        withInterval(entry.outdated, entry.ci.outdated),
        withInterval(entry.wrong, entry.ci.wrong),
        entry.no_answer.n === 0 ? '–' : `${percent(entry.no_answer.accuracy)} (${entry.no_answer.n})`,
        String(entry.n),
        String(entry.queries),
        String(entry.missing),
        String(entry.unknown),
        String(entry.outside),
      ]),
    });
    const withCutoff = board.weekly.filter((entry) => entry.cutoff !== null);
    if (withCutoff.length > 0) {
      const side = (entry: (typeof withCutoff)[number], name: string, measure: 'f1' | 'outdated') => {
        const scores = entry.by_cutoff?.[name];
        return scores === undefined || typeof scores === 'string' ? '–' : `${withInterval(scores[measure], scores.ci[measure])} (${scores.n})`;
      };
      result.push({
        title: "Before and after each system's training cutoff",
        note:
          "Each system's answers split by its cutoff (SYSTEM.meta.json): before, the answer in effect was set before the cutoff, so the system could have learned it; after, it changed on or after the cutoff, as a change the store saw. " +
          'F1 and the outdated rate in percent with 95% intervals by query and the answers counted; answers in effect since a start the store did not see and not before the cutoff are left out of both.',
        header: ['system', 'cutoff', 'F1 before', 'F1 after', 'outdated before', 'outdated after'],
        rows: withCutoff.map((entry) => [entry.system, entry.cutoff ?? '', side(entry, 'before', 'f1'), side(entry, 'after', 'f1'), side(entry, 'before', 'outdated'), side(entry, 'after', 'outdated')]),
      });
    }
    const weeks = [...new Set(board.weekly.flatMap((entry) => Object.keys(entry.by_week)))].sort();
    result.push({
      title: 'F1 by week of queries',
      note: "Each week's queries, F1 in percent with its 95% interval and the number of answers scored.",
      header: ['system', ...weeks],
      rows: board.weekly.map((entry) => [
        entry.system,
        ...weeks.map((week) => {
          const scores = entry.by_week[week];
          return scores ? `${withInterval(scores.f1, scores.ci.f1)} (${scores.n})` : '–';
        }),
      ]),
    });
  }
  for (const { snapshot, entries } of board.growover) {
    result.push({
      title: `GrowOVER, snapshot ${snapshot}`,
      note: "Ranked by F1 over ALL items (GrowOVER's scorer: first line, 50 tokens), in percent with 95% bootstrap intervals over the snapshot's items. CHANGED_DEL scores CHANGED items against their old answer: lower is better. Each item is current (the reply gives its answer), outdated (its old answer: a CHANGED item's, or one made CHANGED in an earlier month and kept since) or wrong, matched as the weekly verdicts are; CHANGED outdated: the CHANGED items answered with their old answer rather than the new one. " +
        "Training cutoffs (SYSTEM.meta.json) and --after split and filter the weekly tables only: a snapshot's items are scored whole.",
      header: ['rank', 'system', 'ALL F1', 'ALL EM', 'SAME F1', 'NEW F1', 'CHANGED F1', 'CHANGED_DEL EM', 'current', 'outdated', 'wrong', 'CHANGED outdated', 'items', 'missing', 'outside'],
      rows: entries.map((entry) => [
        String(entry.rank),
        entry.system,
        withInterval(entry.ALL.f1, entry.ALL.ci.f1),
        withInterval(entry.ALL.em, entry.ALL.ci.em),
        groupCell(entry.SAME, 'f1'),
        groupCell(entry.NEW, 'f1'),
        groupCell(entry.CHANGED, 'f1'),
        groupCell(entry.CHANGED_DEL, 'em'),
        groupCell(entry.ALL, 'current'),
        groupCell(entry.ALL, 'outdated'),
        groupCell(entry.ALL, 'wrong'),
        groupCell(entry.CHANGED, 'outdated'),
        String(entry.ALL.n),
        String(entry.missing),
        String(entry.outside),
      ]),
    });
  }
  return result;
}

/** The board's own figures (weekly systems only): each system's F1, and its outdated rate (the knowledge decay curve), by days since the answer changed. */
export function leaderboardFigures(board: Leaderboard): Figure[] {
  if (board.weekly.length === 0) return [];
  return [
    { name: 'score-by-days-since-change', title: 'F1 by days since the answer last changed, one line per system', spec: scoreByDaysChart(board.weekly, DAY_BIN_ORDER, F1_BY_DAYS) },
    {
      name: 'knowledge-decay',
      title: 'Knowledge decay: the share of answers giving a value that held before, by days since the answer changed, one line per system',
      spec: scoreByDaysChart(board.weekly, DAY_BIN_ORDER, OUTDATED_BY_DAYS),
    },
  ];
}

/**
 * The leaderboard as Markdown (README.md of the leaderboard directory): one table per dataset with
 * its note, then the figures by file name.
 *
 * @example leaderboardMarkdown(buildLeaderboard(store, files, { seed: 1, date: null }), []).startsWith('# Leaderboard')
 */
export function leaderboardMarkdown(board: Leaderboard, figures: readonly Figure[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const sections = tables(board).map((table) => {
    const lines = [`| ${table.header.map(cell).join(' | ')} |`, `|${table.header.map(() => '---').join('|')}|`, ...table.rows.map((row) => `| ${row.map(cell).join(' | ')} |`)];
    return `## ${table.title}\n\n${table.note}\n\n${lines.join('\n')}\n`;
  });
  return `# Leaderboard\n\n${sections.join('\n')}${figures.length > 0 ? `\n${figuresMarkdown(figures)}` : ''}`;
}

/**
 * The leaderboard as one self-contained HTML page (index.html): the tables of `leaderboardMarkdown`,
 * text escaped, and each figure's SVG inlined with its title as caption.
 *
 * @param svgs - the rendered figures by file name (`NAME.svg`); a figure without one shows its caption only
 */
export function leaderboardHtml(board: Leaderboard, figures: readonly Figure[], svgs: ReadonlyMap<string, string>): string {
  const sections = tables(board).map((table) => {
    const head = `<tr>${table.header.map((text) => `<th>${escapeHtml(text)}</th>`).join('')}</tr>`;
    const body = table.rows.map((row) => `<tr>${row.map((text) => `<td>${escapeHtml(text)}</td>`).join('')}</tr>`).join('\n');
    return `<h2>${escapeHtml(table.title)}</h2>\n<p>${escapeHtml(table.note)}</p>\n<table>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
  });
  const pictures = figures.map((figure) => `<figure>\n${(svgs.get(`${figure.name}.svg`) ?? '').replace(/^<\?xml[^>]*>\s*/, '')}<figcaption>${escapeHtml(figure.title)}</figcaption>\n</figure>`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Leaderboard</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; }
table { border-collapse: collapse; margin-bottom: 1em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; }
figure { margin: 1em 0; }
</style>
</head>
<body>
<h1>Leaderboard</h1>
${sections.join('\n')}
${pictures.length > 0 ? `<h2>Figures</h2>\n${pictures.join('\n')}` : ''}
</body>
</html>
`;
}

/** Every file of the leaderboard directory: the pages, the JSON and the figures (the board's and the datasets' given). */
export async function leaderboardFiles(board: Leaderboard, datasetFigures: readonly Figure[]): Promise<Map<string, string>> {
  const figures = [...leaderboardFigures(board), ...datasetFigures];
  const svgs = await renderFigures(figures);
  return new Map([
    ['README.md', leaderboardMarkdown(board, figures)],
    ['index.html', leaderboardHtml(board, figures, svgs)],
    ['leaderboard.json', `${reportJson(board, 2)}\n`],
    ...svgs,
  ]);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
