import { Option, type Command } from 'commander';
import { UserError } from '../../errors.js';
import type { TimeAxis } from '../../model/timelines.js';
import { answerAskedSubject, answerInstant, answerQuery, type Answer } from '../../timeline/answers.js';
import { findPageByTitle } from '../../timeline/pageLookup.js';
import { unknownAnswersReason } from '../../timeline/unknownAnswers.js';
import { addOptions, dateOption, timeAxisOption } from '../options.js';
import { withSession } from '../session.js';
import type { Store } from '../../store/store.js';

interface AnswerFlags {
  query?: string;
  title?: string;
  key?: string;
  template?: string;
  date: string;
  wiki?: string;
  time: TimeAxis;
}

export function registerAnswer(program: Command): void {
  addOptions<AnswerFlags>(program.command('answer').description('the answer in effect at DATE 00:00 UTC, for a query or for a page title and infobox key'), {
    query: new Option('--query <id>', 'a query id (generated or imported)'),
    title: new Option('--title <title>', "a page title (current, or a title it had before a move; an entity's English label or id)"),
    key: new Option('--key <key>', 'an infobox key as written in the wikitext or as stored, e.g. "population total" or population_total, or a Wikidata property, e.g. P1082'),
    template: new Option('--template <name>', 'answer from the infobox with this template only, e.g. "Infobox settlement" or settlement; one the page never had is refused'),
    wiki: new Option('--wiki <name>', 'the wiki the title belongs to, when the store holds several'),
    date: dateOption('--date <date>', 'the date (YYYY-MM-DD)').makeOptionMandatory(),
    time: timeAxisOption(),
  }).action(async (flags: AnswerFlags, command: Command) => {
    await withSession(command, { write: false }, (session) => {
      const answer = lookUp(session.store, flags);
      if (session.json) process.stdout.write(`${JSON.stringify(answer)}\n`);
      else process.stdout.write(`${formatAnswer(answer)}\n`);
      // Unknown is no answer of the page's: say why, as the exports do (JSON keeps its one object).
      if (answer.status === 'unknown' && !session.json && flags.query !== undefined) {
        process.stderr.write(`why: ${unknownAnswersReason(session.store, [flags.date], { queryId: flags.query, axis: flags.time })}\n`);
      }
    });
  });
}

function lookUp(store: Store, flags: AnswerFlags): Answer {
  if (flags.query !== undefined) {
    if (flags.title !== undefined || flags.key !== undefined) throw new UserError('E_FLAGS_CONFLICT', 'give either --query ID or --title T --key K, not both');
    return answerQuery(store, flags.query, flags.date, flags.time);
  }
  if (flags.title === undefined || flags.key === undefined) throw new UserError('E_FLAG_MISSING', 'give --query ID, or --title T with --key K');
  const page = findPageByTitle(store, flags.title, flags.wiki);
  return answerAskedSubject(store, { ...page, title: flags.title, key: flags.key, template: flags.template }, answerInstant(flags.date), flags.time);
}

/** An answer as `answer` prints it; an imported DailyQA answer has no revision to name. */
export function formatAnswer(answer: Answer): string {
  if (answer.status !== 'ok') return `(${answer.status.replace('_', ' ')})`;
  const aliases = answer.aliases.length > 0 ? `\n  also known as: ${answer.aliases.join('; ')}` : '';
  const source = answer.rev_id === null ? 'imported (no revision)' : `from revision ${answer.rev_id}`;
  return `${answer.answer}\n  ${source}, valid ${answer.valid_from} .. ${answer.valid_to ?? '(no later change known)'}${aliases}`;
}
