import { Option, type Command } from 'commander';
import { addDays, isoSeconds, parseDate } from '../../dates.js';
import { idsOfFact, isEntityId, renderValue } from '../../content/entityRefs.js';
import { WIKIBASE_ITEM_TEMPLATE } from '../../content/wikibaseItemFacts.js';
import { UserError } from '../../errors.js';
import { addOptions, dateOption, printJsonLines } from '../options.js';
import { withSession } from '../session.js';

interface ChangesFlags {
  start: string;
  end: string;
  selected?: boolean;
  all?: boolean;
  wiki?: string;
}

export function registerChanges(program: Command): void {
  addOptions<ChangesFlags>(
    program
      .command('changes')
      .description('infobox changes from START to END inclusive, as JSON lines (after the key/value filters, before selection; reverted_by names the revert that undid a change)'),
    {
      start: dateOption('--start <date>', 'first day (YYYY-MM-DD)').makeOptionMandatory(),
      end: dateOption('--end <date>', 'last day, inclusive (YYYY-MM-DD)').makeOptionMandatory(),
      selected: new Option('--selected', 'only the data units the select stage kept, with their week'),
      all: new Option('--all', 'also the changes the key/value filters dropped, with the reason'),
      wiki: new Option('--wiki <name>', 'only this wiki (default: every wiki in the store)'),
    },
  ).action(async (flags: ChangesFlags, command: Command) => {
    if (flags.end < flags.start) throw new UserError('E_DATE_RANGE_INVALID', `--end ${flags.end} is before --start ${flags.start}`);
    await withSession(command, { write: false }, (session) => {
      const window = { start: isoSeconds(parseDate(flags.start)), end: isoSeconds(addDays(parseDate(flags.end), 1)) };
      if (flags.selected) {
        printJsonLines(
          session.store.changeLog.dataUnits(window, { wiki: flags.wiki }).map((unit) => ({
            title: unit.title,
            page_id: unit.pageId,
            rev_id: unit.revId,
            prev_rev_id: unit.prevRevId,
            timestamp: unit.timestamp,
            template: unit.template,
            key: unit.key,
            old: unit.old,
            new: unit.new,
            week: unit.windowStart.slice(0, 10),
            url: unit.url,
            wiki: unit.wiki,
          })),
        );
        return;
      }
      const changes = session.store.changeLog.changes(window, { onlyCandidates: !flags.all, wiki: flags.wiki });
      // Entity facts are stored with ids (docs/ARCHITECTURE.md §16): shown with the labels the store knows.
      // An entity page is titled by its id (`Q2112`): shown by its label, as --selected and the releases show it.
      const entityTitle = (change: { title: string; template: string }) => (change.template === WIKIBASE_ITEM_TEMPLATE && isEntityId(change.title) ? [change.title] : []);
      const names = session.store.entities.names([
        ...new Set(changes.flatMap((change) => [...idsOfFact(change.key, change.old), ...idsOfFact(change.key, change.new), ...entityTitle(change)])),
      ]);
      const named = (value: string) => renderValue(value, (id) => names.get(id)).text;
      printJsonLines(
        changes.map((change) => ({
          title: entityTitle(change).length > 0 ? (names.get(change.title)?.label ?? change.title) : change.title,
          page_id: change.pageId,
          rev_id: change.revId,
          prev_rev_id: change.prevRevId,
          timestamp: change.timestamp,
          template: change.template,
          key: change.key,
          kind: change.kind,
          ...(names.get(change.key)?.label ? { key_label: names.get(change.key)?.label } : {}),
          old: named(change.old),
          new: named(change.new),
          reverted_by: change.revertedBy,
          wiki: change.wiki,
          ...(flags.all ? { filtered: change.filtered } : {}),
        })),
      );
    });
  });
}
