/**
 * A Wikidata item revision's facts (docs/ARCHITECTURE.md §16): its JSON read with wikibase-sdk's claim
 * simplification, never a claim parser of our own. A revision is one fact set (template
 * `wikibase-item`) keyed by property, each key's value the best-ranked statements (preferred if any,
 * else normal; never deprecated) in statement order; and every non-deprecated statement with a time
 * qualifier, for the world time axis. Values name entities by id (`{{Q183}}`, entityRefs.ts), so
 * what is stored does not depend on which labels are known.
 */
import type { Claim, PropertyQualifiers } from 'wikibase-sdk';
import { z } from 'zod';
import type { EntityFacts, Infobox, ParsedRevision, TimedFact } from '../model.js';
import { entityRef, isEntityId } from './entityRefs.js';
import { noFacts, type FactExtractor } from './factExtractor.js';

/** The template name of an entity's fact set, as its infoboxes are stored: its page is titled by the entity's id. */
export const WIKIBASE_ITEM_TEMPLATE = 'wikibase-item';

/** Time qualifiers: start time, end time, point in time. */
const START = 'P580';
const END = 'P582';
const POINT = 'P585';

/**
 * The parts of an entity this extractor reads, checked shallowly: the SDK reads the statements, and
 * a schema walking every snak, label and sitelink cost as much as the rest of the extraction.
 */
const EntityJson = z.looseObject({
  id: z.string(),
  // Wikibase writes an entity without statements as `"claims": []` (PHP's empty array).
  claims: z.union([z.record(z.string(), z.array(z.unknown())), z.tuple([]).transform(() => ({}))]),
});
/** A statement the SDK can be given; one that is not is left out alone. */
const Statement = z.looseObject({
  rank: z.enum(['preferred', 'normal', 'deprecated']),
  mainsnak: z.looseObject({ snaktype: z.string(), datavalue: z.looseObject({ type: z.string() }).optional() }),
  qualifiers: z.unknown().optional(),
});
/** What Wikibase stores for an item merged into another: a redirect to it, no statements of its own. */
const EntityRedirect = z.object({ entity: z.string(), redirect: z.string() });
const EnglishLabel = z.object({ en: z.looseObject({ value: z.string() }) });
const EnglishAliases = z.object({ en: z.array(z.looseObject({ value: z.string() })) });
const EnglishSitelink = z.object({ enwiki: z.looseObject({ title: z.string() }) });
const EnglishDescription = z.object({ en: z.looseObject({ value: z.string() }) });

const OPTIONS = { keepRichValues: true, keepRanks: true, timeConverter: 'simple-day' } as const;

/** wikibase-sdk, loaded by `prepare` with the first batch that holds an entity revision rather than at start-up (docs/ARCHITECTURE.md §12). */
type Sdk = typeof import('wikibase-sdk');
let sdk: Sdk | undefined;

function loadedSdk(): Sdk {
  if (!sdk) throw new Error('wikibase-sdk is not loaded: await prepareExtractors() before extracting entity facts');
  return sdk;
}

interface RichClaim {
  /** Null for a statement of "unknown value" or "no value": no fact, but its rank still counts. */
  value: unknown;
  /** The value names an entity: the SDK gives an item and a string (a road number `M25`) alike as bare strings. */
  isEntity: boolean;
  rank: string;
  qualifiers: Record<string, unknown[]>;
}

/** The extractor of Wikidata items (`wikibase-item`); its `prepare` loads wikibase-sdk. */
export const wikibaseItemFacts: FactExtractor = {
  models: ['wikibase-item'],
  async prepare() {
    sdk ??= await import('wikibase-sdk');
  },
  extract(text: string, options): ParsedRevision {
    const loaded = loadedSdk();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return { ...noFacts(), unreadable: `not JSON (${(error as Error).message})` };
    }
    // A merged item's facts end with the merge, its statements now the target's: no facts, not
    // unreadable content, which would keep the item's last facts as if nothing had changed.
    if (EntityRedirect.safeParse(json).success) return noFacts();
    const parsed = EntityJson.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ...noFacts(), unreadable: `not an entity's JSON (${issue?.path.length ? `field "${issue.path.join('.')}": ` : ''}${issue?.message ?? 'invalid'})` };
    }
    return entityFacts(loaded, parsed.data, options.firstParagraph);
  },
};

function entityFacts(sdk: Sdk, entity: z.infer<typeof EntityJson>, withDescription: boolean): ParsedRevision {
  const fields: Array<[string, string]> = [];
  const timed: TimedFact[] = [];
  for (const [property, statements] of Object.entries(entity.claims)) {
    const claims = statements.flatMap((raw) => {
      const statement = Statement.safeParse(raw);
      if (!statement.success || statement.data.rank === 'deprecated') return [];
      const claim = simplified(sdk, statement.data);
      return claim === null ? [] : [claim];
    });
    // Ranked with the statements without a value, as Wikidata's truthy statements are: a preferred "no
    // value" (a vacant office) leaves the normal values it outranks out, rather than making them the answer.
    const best = claims.some((claim) => claim.rank === 'preferred') ? claims.filter((claim) => claim.rank === 'preferred') : claims;
    const values = [...new Set(best.flatMap((claim) => valueText(claim.value, claim.isEntity) ?? []))];
    if (values.length > 0) fields.push([property, values.join('; ')]);
    for (const claim of claims) {
      const fact = timedFact(property, claim);
      if (fact) timed.push(fact);
    }
  }
  const infobox: Infobox = { template: WIKIBASE_ITEM_TEMPLATE, fields };
  const label = EnglishLabel.safeParse(entity['labels']);
  const aliases = EnglishAliases.safeParse(entity['aliases']);
  const sitelink = EnglishSitelink.safeParse(entity['sitelinks']);
  const about: EntityFacts = {
    id: entity.id,
    label: label.success ? label.data.en.value : null,
    aliases: aliases.success ? aliases.data.en.map((alias) => alias.value) : [],
    enwiki: sitelink.success ? sitelink.data.enwiki.title : null,
    timed,
  };
  // The description is the entity's one-line summary: what the weekly checks read as an article's first paragraph.
  const description = withDescription ? EnglishDescription.safeParse(entity['descriptions']) : null;
  const firstParagraph = description?.success ? `${about.label ?? entity.id}: ${description.data.en.value}` : '';
  return { infoboxes: fields.length > 0 ? [infobox] : [], firstParagraph, entity: about };
}

/**
 * The statement simplified with its rank and its time qualifiers (the others are never read, and
 * simplifying them was half the cost), its value null for one without a value (somevalue, novalue);
 * null for one the SDK cannot read.
 */
function simplified({ simplifyClaim, simplifyPropertyQualifiers }: Sdk, statement: z.infer<typeof Statement>): RichClaim | null {
  try {
    const isEntity = statement.mainsnak.datavalue?.type === 'wikibase-entityid';
    const qualifiers = statement.qualifiers as Record<string, PropertyQualifiers> | undefined;
    const claim = simplifyClaim(statement as unknown as Claim, OPTIONS) as unknown as { value?: unknown; rank: string };
    const times: Record<string, unknown[]> = {};
    for (const property of [START, END, POINT]) {
      const snaks = qualifiers?.[property];
      if (snaks && snaks.length > 0) times[property] = simplifyPropertyQualifiers(snaks, OPTIONS);
    }
    // The SDK simplifies a somevalue or novalue snak to nothing (and throws on a snak it cannot read):
    // no fact, but its rank and its time qualifiers still count (a vacant office since a date).
    if (claim.value === undefined || claim.value === null) return { value: null, isEntity, rank: claim.rank, qualifiers: times };
    const value = statement.mainsnak.datavalue?.type === 'quantity' ? withExactAmount(claim.value, statement.mainsnak.datavalue) : claim.value;
    return { value, isEntity, rank: claim.rank, qualifiers: times };
  } catch {
    return null;
  }
}

/** A quantity's amount as Wikidata writes it: a signed decimal (`+5972370000000000000000000`, `-12.50`). */
const DECIMAL_AMOUNT = /^[+-]?\d+(?:\.\d+)?$/;

/**
 * A simplified quantity with its amount as the decimal Wikidata wrote, which the SDK parses to a double:
 * `5972370000000000000000000` would be written `5.97237e+24`, `0.0000001` `1e-7`, and
 * `12345678901234567` lose its last digit. Written without its plus sign and trailing zeros, as a
 * double an amount it holds exactly (`258.82`, `-12.5`). Checked by hand rather than with zod: a
 * population series is hundreds of quantities a revision.
 */
function withExactAmount(value: unknown, datavalue: Record<string, unknown>): unknown {
  const amount = (datavalue['value'] as { amount?: unknown } | undefined)?.amount;
  if (typeof amount !== 'string' || !DECIMAL_AMOUNT.test(amount) || typeof value !== 'object' || value === null) return value;
  return { ...value, amount: amount.replace(/^\+/, '').replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '') };
}

/**
 * A simplified value as text: an entity (`isEntity`, from the snak's datavalue type) as its
 * reference, a quantity as its number and unit, a time at its precision (`2011-05-03`, `2011-05`,
 * `2011`, `1990s`, `20th century`: `timeAtPrecision`), a monolingual text as its text, a coordinate as `latitude, longitude`, strings
 * (identifiers, URLs, file names) as they are, even one shaped like an id (`M25`, `Q2112` as an
 * external id).
 */
function valueText(value: unknown, isEntity: boolean): string | null {
  if (typeof value === 'string') return isEntity ? entityRef(value) : value;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'object' || value === null) return null;
  const rich = value as Record<string, unknown>;
  if (typeof rich['amount'] === 'string' || typeof rich['amount'] === 'number') {
    const unit = typeof rich['unit'] === 'string' && isEntityId(rich['unit']) ? ` ${entityRef(rich['unit'])}` : '';
    return `${rich['amount']}${unit}`;
  }
  if (typeof rich['time'] === 'string') return timeAtPrecision(rich['time'], rich['precision']);
  if (typeof rich['text'] === 'string') return rich['text'];
  if (typeof rich['latitude'] === 'number' && typeof rich['longitude'] === 'number') return `${rich['latitude']}, ${rich['longitude']}`;
  return null;
}

/** Wikidata's time precisions from the millennium to the day. */
const [MILLENNIUM, CENTURY, DECADE, YEAR, MONTH, DAY] = [6, 7, 8, 9, 10, 11];

/**
 * A time as text at its precision: the SDK's simple-day form (`2011-05-03`, `2011-05`, `2011`) for a
 * day, a month or a year, but a decade, a century or a millennium as such (`1990s`, `20th century`,
 * `2nd millennium`): the SDK gives them as one year, an answer more precise than the statement.
 * The precision decides, not the digits: the SDK leaves the month and day of a year written
 * `+1883-03-15` (Wikibase keeps what tools wrote), and they are dropped. A time before the common era
 * is written with BCE (`44 BCE`, `44-03-15 BCE`).
 *
 * @example timeAtPrecision('1901', 7) // '20th century'
 * @example timeAtPrecision('1990-01-01', 8) // '1990s'
 */
export function timeAtPrecision(time: string, precision: unknown): string {
  const day = simpleDay(time);
  if (!day || typeof precision !== 'number') return time;
  const { year } = day;
  const era = day.beforeCommonEra ? ' BCE' : '';
  if (precision >= MONTH) return `${year}${day.month === undefined ? '' : `-${day.month}`}${precision > MONTH && day.day !== undefined ? `-${day.day}` : ''}${era}`;
  if (precision === YEAR) return `${year}${era}`;
  if (precision === DECADE) return `${Math.floor(year / 10) * 10}s${era}`;
  if (precision === CENTURY) return `${ordinal(Math.ceil(year / 100))} century${era}`;
  if (precision === MILLENNIUM) return `${ordinal(Math.ceil(year / 1000))} millennium${era}`;
  return `${year}${era}`;
}

/** The SDK's simple-day time (`2011-05-03`, `2011-05`, `2011`, `-44-03-15`) in its parts; null for anything else. */
function simpleDay(time: string): { beforeCommonEra: boolean; year: number; month: string | undefined; day: string | undefined } | null {
  const match = /^(-?)(\d+)(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(time);
  if (!match) return null;
  return { beforeCommonEra: match[1] === '-', year: Number(match[2]), month: match[3], day: match[4] };
}

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function timedFact(key: string, claim: RichClaim): TimedFact | null {
  const start = qualifierTime(claim.qualifiers[START])?.instant ?? null;
  const ended = qualifierTime(claim.qualifiers[END]);
  // Wikidata's end is the last day the statement held (West Germany ends 1990-10-02, Germany starts
  // 1990-10-03): it holds through the end's period, and a statement starting in that period takes over.
  const end = ended === null ? null : periodAfter(ended);
  // A start or an end that is there but gives no time ("unknown value" or "no value", which the SDK
  // simplifies to nothing; a year out of range) leaves the statement's extent unknown: read as open, a finished
  // term would hold to this day on world time, so the statement is no timed fact at all.
  if ((claim.qualifiers[START] !== undefined && start === null) || (claim.qualifiers[END] !== undefined && end === null)) return null;
  const point = qualifierTime(claim.qualifiers[POINT])?.instant ?? null;
  if (start === null && end === null && point === null) return null;
  // A statement without a value ("no value", "unknown value") holds as an absence: on world time a
  // preferred one leaves the normal values of its period out, as it does on edit time.
  const value = claim.value === null ? null : valueText(claim.value, claim.isEntity);
  if (value === null && claim.value !== null) return null;
  return { key, value, rank: claim.rank === 'preferred' ? 'preferred' : 'normal', start, end, handoverFrom: ended?.instant ?? null, point };
}

/** A time qualifier read at its precision: the instant its period starts, and the period's length. */
interface QualifierTime {
  instant: string;
  period: 'year' | 'month' | 'day';
}

/**
 * The first value of a time qualifier as an instant at its precision's start (a start in the year 2020,
 * written `+2020-03-15` at year precision, is 2020-01-01; a precision coarser than the year is read as
 * its year); null when absent or outside years 1 to 9999. The SDK's simple-day times drop the year's
 * leading zeros (`+0800-05-03` is `800-05-03`, year 0 would be `-05-03`): the year is padded back to
 * four digits.
 */
function qualifierTime(values: unknown[] | undefined): QualifierTime | null {
  const qualifier = values?.map((value) => value as { time?: unknown; precision?: unknown } | null).find((value) => typeof value?.time === 'string');
  if (!qualifier) return null;
  const time = simpleDay(qualifier.time as string);
  if (!time || time.beforeCommonEra || time.year === 0 || time.year > 9999) return null;
  const precision = typeof qualifier.precision === 'number' ? qualifier.precision : DAY;
  const month = precision >= MONTH ? (time.month ?? '01') : '01';
  const day = precision >= DAY ? (time.day ?? '01') : '01';
  return { instant: `${String(time.year).padStart(4, '0')}-${month}-${day}T00:00:00Z`, period: precision >= DAY ? 'day' : precision === MONTH ? 'month' : 'year' };
}

/** The first instant after a qualifier's period (2020 at year precision: 2021-01-01); the year 9999 has none and ends where it starts. */
function periodAfter({ instant, period }: QualifierTime): string {
  const after = new Date(instant);
  if (period === 'day') after.setUTCDate(after.getUTCDate() + 1);
  else if (period === 'month') after.setUTCMonth(after.getUTCMonth() + 1);
  else after.setUTCFullYear(after.getUTCFullYear() + 1);
  const year = after.getUTCFullYear();
  return Number.isNaN(year) || year > 9999 ? instant : `${String(year).padStart(4, '0')}${after.toISOString().slice(4, 10)}T00:00:00Z`;
}
