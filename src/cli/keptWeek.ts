import { UserError } from '../errors.js';
import type { Store } from '../store/store.js';

/**
 * Refuses a `--week` the store holds no kept query of, naming the nearest weeks it holds on either
 * side: a day inside a week (the Tuesday of a Monday's week) was sent to run the weekly pipeline,
 * which cannot help.
 *
 * @throws UserError (`E_PREREQUISITE_MISSING`) for a week no kept query was made in
 */
export function requireKeptWeek(store: Store, week: string): void {
  const weeks = store.queries.keptWeeks().map((start) => start.slice(0, 10));
  if (weeks.includes(week)) return;
  const before = weeks.filter((start) => start < week).at(-1);
  const after = weeks.find((start) => start > week);
  const nearest = [before ? `${before} before it` : '', after ? `${after} after it` : ''].filter((text) => text !== '').join(', ');
  throw new UserError(
    'E_PREREQUISITE_MISSING',
    weeks.length === 0
      ? `the store holds no kept query of any week: run wikidelta weekly, or import the published files`
      : `the store holds no kept query of a week starting ${week}: give the first day of a week it ran or imported (the nearest: ${nearest})`,
  );
}
