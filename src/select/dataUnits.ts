import type { InfoboxChange } from '../model.js';
import { derivedRandom } from '../random.js';

/** What the rule looks at; candidates carry whatever else their caller needs through it. */
export type CandidateChange = Pick<InfoboxChange, 'pageId' | 'revId' | 'timestamp' | 'template' | 'key'>;

/**
 * The DailyQA data unit rule: per page, only the last revision in the window that has a candidate
 * change counts, and when it changed several keys one is drawn with the seeded generator. The draw
 * depends only on the seed, the page and the revision, so the choice is stable whatever else the
 * window holds and in whatever order pages arrive.
 *
 * @param candidates - the window's candidate changes (those `filterReason` keeps), with their page and revision
 * @param seed - the run's seed
 * @returns at most one change per page, in the order of `candidates`
 * @example selectDataUnits(changes, 42).length <= new Set(changes.map((change) => change.pageId)).size
 */
export function selectDataUnits<Change extends CandidateChange>(candidates: readonly Change[], seed: number | string): Change[] {
  const byPage = new Map<number, Change[]>();
  for (const change of candidates) {
    const list = byPage.get(change.pageId);
    if (list) list.push(change);
    else byPage.set(change.pageId, [change]);
  }
  const units: Change[] = [];
  for (const [pageId, changes] of [...byPage].sort(([a], [b]) => a - b)) {
    const last = changes.reduce((best, c) => (compareRevision(c, best) > 0 ? c : best));
    const ofLast = changes
      .filter((c) => c.revId === last.revId)
      .sort((a, b) => a.template.localeCompare(b.template) || a.key.localeCompare(b.key));
    units.push(derivedRandom(seed, `${pageId}:${last.revId}`).pick(ofLast));
  }
  return units;
}

function compareRevision(a: CandidateChange, b: CandidateChange): number {
  return a.timestamp.localeCompare(b.timestamp) || a.revId - b.revId;
}

/**
 * The changes a release could not ask about because of what their key says later in the window: a
 * change `isUnnamed` rejects (a value naming an entity without a label), and every earlier change of
 * the same page, template and key in the window, whose question's day files would answer with that
 * later value (an id) on the week's days after it. Give it the window's changes that are not reverted.
 *
 * @param changes - the window's changes
 * @param isUnnamed - whether a change on its own cannot be asked about (its old or new value unnamed)
 * @returns the changes to leave out, the latest of each key first
 * @example unnamedThroughWindow([toTaiwan, toQ999999], unnamed) // both: the days after the second answer Q999999
 */
export function unnamedThroughWindow<Change extends CandidateChange>(changes: readonly Change[], isUnnamed: (change: Change) => boolean): Set<Change> {
  const byKey = new Map<string, Change[]>();
  for (const change of changes) {
    const id = `${change.pageId}\u0000${change.template}\u0000${change.key}`;
    const list = byKey.get(id);
    if (list) list.push(change);
    else byKey.set(id, [change]);
  }
  const rejected = new Set<Change>();
  for (const list of byKey.values()) {
    let later = false;
    for (const change of [...list].sort((a, b) => compareRevision(b, a))) {
      if (later || isUnnamed(change)) {
        later = true;
        rejected.add(change);
      }
    }
  }
  return rejected;
}
