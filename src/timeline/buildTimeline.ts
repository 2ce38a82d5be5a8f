import { pairInfoboxes, templateLabels } from '../diff/infoboxDiff.js';
import { findReverts } from '../diff/reverts.js';
import type { Infobox } from '../model.js';
import type { PageTimeline, TimelineRevision, ValueInterval } from '../model/timelines.js';

/**
 * The value intervals of every infobox key of one page, from its revisions oldest first. Revisions
 * undone by an identity revert within `revertHours` never enter the timeline (the vandal value never
 * appears); the revert itself restores the earlier values, which then continue unbroken. Infoboxes
 * are followed across revisions by the same pairing as the diff stage, so a replaced template keeps
 * its slot and a key that survives the replacement keeps its history. A value keeps the aliases of
 * the revision that set it, unless an older reading gave them (`olderReading`) and a later revision
 * read this version's way holds the same value: a store an older wikidelta filled has the texts of its
 * revisions no more, and its reading named links inside a longer value as the value's aliases.
 */
export function buildTimeline(revisions: readonly TimelineRevision[], revertHours: number): PageTimeline {
  const revertedBy = findReverts(revisions, revertHours);
  const effective = withContentByHash(revisions).filter((r) => r.infoboxes !== null && (revertedBy.get(r.revId) ?? r.revId) === r.revId);
  const open = new Map<string, ValueInterval>();
  // The open intervals whose aliases an older reading gave.
  const readOlder = new Set<string>();
  const closed: ValueInterval[] = [];
  let previous: { infoboxes: Infobox[]; slots: string[] } | null = null;

  for (const revision of effective) {
    const infoboxes = revision.infoboxes as Infobox[];
    const slots = assignSlots(previous, infoboxes);
    const labels = templateLabels(infoboxes);
    const present = new Set<string>();
    infoboxes.forEach((box, index) => {
      const slot = slots[index] as string;
      const template = labels[index] as string;
      for (const [key, value] of new Map(box.fields)) {
        const id = `${slot}\u0000${key}`;
        present.add(id);
        const current = open.get(id);
        const aliases = box.aliases?.[key];
        if (current && current.value === value && current.template === template) {
          if (readOlder.has(id) && !revision.olderReading) {
            open.set(id, withAliases(current, aliases));
            readOlder.delete(id);
          }
          continue;
        }
        if (current) closed.push({ ...current, validTo: revision.timestamp });
        open.set(id, withAliases({ slot, key, template, value, validFrom: revision.timestamp, validTo: null, revId: revision.revId }, aliases));
        if (revision.olderReading) readOlder.add(id);
        else readOlder.delete(id);
      }
    });
    for (const [id, interval] of open) {
      if (present.has(id)) continue;
      closed.push({ ...interval, validTo: revision.timestamp });
      open.delete(id);
      readOlder.delete(id);
    }
    previous = { infoboxes, slots };
  }

  const intervals = [...closed, ...open.values()]
    // A revision and its instant replacement (same timestamp) leave zero-length intervals: no date sees them.
    .filter((interval) => interval.validTo === null || interval.validTo > interval.validFrom)
    .sort((a, b) => a.slot.localeCompare(b.slot) || a.key.localeCompare(b.key) || a.validFrom.localeCompare(b.validFrom));
  return { intervals, createdAt: revisions.find((r) => r.parentId === null || r.parentId === 0)?.timestamp ?? null };
}

function withAliases(interval: ValueInterval, aliases: string[] | undefined): ValueInterval {
  const { aliases: _replaced, ...rest } = interval;
  return aliases ? { ...rest, aliases } : rest;
}

/**
 * A revision known by its metadata alone (the revert horizon around a window) whose content hash is
 * that of a revision with content has that content: the same text parses to the same infoboxes. So
 * the version a revert restores is known from the revert even when the restored revision's own text
 * was never fetched, and a week's values do not depend on whether an earlier week stored it.
 */
function withContentByHash(revisions: readonly TimelineRevision[]): TimelineRevision[] {
  const byHash = new Map<string, TimelineRevision>();
  for (const revision of revisions) if (revision.infoboxes !== null && revision.sha1 !== null) byHash.set(revision.sha1, revision);
  return revisions.map((revision) => {
    const same = revision.infoboxes === null && revision.sha1 !== null ? byHash.get(revision.sha1) : undefined;
    return same ? { ...revision, infoboxes: same.infoboxes, ...(same.olderReading ? { olderReading: true } : {}) } : revision;
  });
}

/** Slots of a revision's infoboxes: inherited from the paired infobox of the previous revision, else new. */
function assignSlots(previous: { infoboxes: Infobox[]; slots: string[] } | null, infoboxes: Infobox[]): string[] {
  const labels = templateLabels(infoboxes);
  if (!previous) return labels;
  const slots: Array<string | null> = infoboxes.map(() => null);
  for (const pair of pairInfoboxes(previous.infoboxes, infoboxes)) {
    if (pair.oldIndex !== null && pair.newIndex !== null) slots[pair.newIndex] = previous.slots[pair.oldIndex] as string;
  }
  const taken = new Set(slots.filter((slot): slot is string => slot !== null));
  return slots.map((slot, index) => {
    if (slot !== null) return slot;
    let label = labels[index] as string;
    for (let n = 2; taken.has(label); n++) label = `${labels[index]}~${n}`;
    taken.add(label);
    return label;
  });
}
