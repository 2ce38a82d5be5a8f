/**
 * Writes the embedded sample `data/sample/sample-history.xml`: a small MediaWiki XML export
 * (schema 0.11) of fictional articles whose infoboxes and prose change between 2025-01-06 and
 * 2025-03-31. `npm start` (the demo) and many tests run on it, offline.
 *
 * The output is deterministic: no clock, no randomness. Rerun with `npm run sample`; the unit
 * test `tests/unit/scripts/makeSample.test.ts` checks that the committed file equals a fresh run.
 *
 * Usage: tsx scripts/make-sample.ts [--out PATH]
 *
 * All article text below was written for this project (fictional places, people and
 * organisations) and is released under MIT / CC0 with the rest of the sample; see
 * data/sample/README.md for what each page holds and when its values change.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// ---------------------------------------------------------------------------------------------
// Model of an article and of the edits made to it
// ---------------------------------------------------------------------------------------------

/** One `| key = value` line of an infobox; key `#` renders `value` as a raw line (a comment). */
interface InfoboxParam {
  key: string;
  value: string;
}

interface Infobox {
  /** Full template name, e.g. `Infobox settlement`. */
  template: string;
  params: InfoboxParam[];
}

/**
 * An article as its parts: lines above the infobox, the infoboxes, and the body wikitext.
 * The first infobox is rendered at the top; infobox number N >= 1 replaces the marker
 * `%%INFOBOX N%%` inside the body.
 */
interface Article {
  head: string[];
  infoboxes: Infobox[];
  body: string;
}

type Contributor = { username: string; id: number } | { ip: string };

interface RevisionSpec {
  at: string;
  by: Contributor;
  comment: string;
  minor?: boolean;
  /** Changes the article (a copy of the previous revision's state). */
  edit?: (article: ArticleEditor) => void;
  /** Restore the exact state of the revision before the previous one (a rollback of one edit). */
  revertPrevious?: boolean;
  /** A page move: null revision, the page takes this title. */
  moveTo?: string;
}

interface PageSpec {
  id: number;
  /** Title at creation; a `moveTo` revision changes it. */
  title: string;
  initial: Article;
  /** The first one creates the page with `initial`. */
  revisions: RevisionSpec[];
}

interface RedirectPageSpec {
  id: number;
  title: string;
  target: string;
  at: string;
  by: Contributor;
  comment: string;
}

function infobox(template: string, params: Array<[string, string]>): Infobox {
  return { template, params: params.map(([key, value]) => ({ key, value })) };
}

function cloneArticle(article: Article): Article {
  return {
    head: [...article.head],
    infoboxes: article.infoboxes.map((box) => ({
      template: box.template,
      params: box.params.map((param) => ({ ...param })),
    })),
    body: article.body,
  };
}

function renderInfobox(box: Infobox): string {
  const lines = [`{{${box.template}`];
  for (const { key, value } of box.params) {
    lines.push(key === '#' ? value : value === '' ? `| ${key} =` : `| ${key} = ${value}`);
  }
  lines.push('}}');
  return lines.join('\n');
}

function renderArticle(article: Article): string {
  const [mainBox, ...otherBoxes] = article.infoboxes;
  let body = article.body;
  otherBoxes.forEach((box, index) => {
    const marker = `%%INFOBOX ${index + 1}%%`;
    if (!body.includes(marker)) throw new Error(`body lacks ${marker}`);
    body = body.replace(marker, renderInfobox(box));
  });
  const parts = [...article.head];
  if (mainBox) parts.push(renderInfobox(mainBox));
  parts.push(body.trim());
  return parts.join('\n') + '\n';
}

/** The operations a revision applies; each one fails loudly when its target is missing. */
class ArticleEditor {
  constructor(readonly article: Article) {}

  private box(index: number): Infobox {
    const box = this.article.infoboxes[index];
    if (!box) throw new Error(`no infobox #${index}`);
    return box;
  }

  private param(key: string, boxIndex: number): InfoboxParam {
    const param = this.box(boxIndex).params.find((p) => p.key === key);
    if (!param) throw new Error(`infobox #${boxIndex} has no key ${key}`);
    return param;
  }

  /** Change the value of an existing key. */
  set(key: string, value: string, boxIndex = 0): this {
    this.param(key, boxIndex).value = value;
    return this;
  }

  /** Add a new key right after `afterKey`. */
  add(key: string, value: string, afterKey: string, boxIndex = 0): this {
    const params = this.box(boxIndex).params;
    if (params.some((p) => p.key === key)) throw new Error(`key ${key} already present`);
    const at = params.findIndex((p) => p.key === afterKey);
    if (at < 0) throw new Error(`infobox #${boxIndex} has no key ${afterKey}`);
    params.splice(at + 1, 0, { key, value });
    return this;
  }

  removeKey(key: string, boxIndex = 0): this {
    const params = this.box(boxIndex).params;
    const at = params.findIndex((p) => p.key === key);
    if (at < 0) throw new Error(`infobox #${boxIndex} has no key ${key}`);
    params.splice(at, 1);
    return this;
  }

  /** Replace the infobox template name (the keys stay unless edited). */
  template(name: string, boxIndex = 0): this {
    this.box(boxIndex).template = name;
    return this;
  }

  /** Replace one exact, unique passage of the body. */
  replace(from: string, to: string): this {
    const first = this.article.body.indexOf(from);
    if (first < 0) throw new Error(`body lacks: ${from}`);
    if (this.article.body.indexOf(from, first + 1) >= 0) throw new Error(`ambiguous: ${from}`);
    this.article.body = this.article.body.slice(0, first) + to + this.article.body.slice(first + from.length);
    return this;
  }

  /** Insert text (usually a paragraph or section ending in a blank line) before an exact passage. */
  insertBefore(anchor: string, text: string): this {
    return this.replace(anchor, text + anchor);
  }

  /** Append a paragraph or section at the end of the body. */
  append(text: string): this {
    this.article.body = this.article.body.trimEnd() + '\n\n' + text.trim() + '\n';
    return this;
  }

  /** Cut the block starting at `blockStart` (up to the next blank line) and put it before `anchor`. */
  moveBlock(blockStart: string, anchor: string): this {
    const body = this.article.body;
    const start = body.indexOf(blockStart);
    if (start < 0) throw new Error(`body lacks: ${blockStart}`);
    const blankLine = body.indexOf('\n\n', start);
    const end = blankLine < 0 ? body.length : blankLine + 2;
    const block = body.slice(start, end);
    this.article.body = body.slice(0, start) + body.slice(end);
    return this.insertBefore(anchor, block.endsWith('\n\n') ? block : block + '\n\n');
  }
}

// ---------------------------------------------------------------------------------------------
// Contributors
// ---------------------------------------------------------------------------------------------

const tamsin: Contributor = { username: 'Tamsin Orrell', id: 2041 };
const halvard: Contributor = { username: 'Halvard Mercer', id: 877 };
const nadia: Contributor = { username: 'Nadia Quill', id: 3312 };
const isolde: Contributor = { username: 'Isolde Ferrars', id: 1529 };
const pell: Contributor = { username: 'Pell Watkins', id: 4108 };
const statsBot: Contributor = { username: 'DeltaStatsBot', id: 9001 };
const ravi: Contributor = { username: 'Ravi Castellan', id: 2688 };
const vandalIp = '203.0.113.45';

function moveComment(user: { username: string }, from: string, to: string, reason: string): string {
  return `[[User:${user.username}|${user.username}]] moved page [[${from}]] to [[${to}]]: ${reason}`;
}

function rollbackComment(ip: string, toUser: string): string {
  return `Reverted edits by [[Special:Contributions/${ip}|${ip}]] ([[User talk:${ip}|talk]]) to last version by ${toUser}`;
}

// ---------------------------------------------------------------------------------------------
// The pages
// ---------------------------------------------------------------------------------------------

const portAldwin: PageSpec = {
  id: 101,
  title: 'Port Aldwin',
  initial: {
    head: ['{{Short description|Port city in Caldrossa}}', '{{Use dmy dates|date=January 2025}}'],
    infoboxes: [
      infobox('Infobox settlement', [
        ['name', 'Port Aldwin'],
        ['official_name', 'City of Port Aldwin'],
        ['settlement_type', '[[City]]'],
        ['image_skyline', 'Port Aldwin harbour front.jpg'],
        ['imagesize', '280px'],
        ['image_alt', 'Cranes and brick warehouses along a harbour at dusk'],
        ['image_caption', 'The harbour front seen from Gull Point'],
        ['#', '<!-- Location -->'],
        ['subdivision_type', 'Country'],
        ['subdivision_name', '[[Caldrossa]]'],
        ['subdivision_type1', 'Province'],
        ['subdivision_name1', '[[Harrowfen Province|Harrowfen]]'],
        ['established_title', 'Founded'],
        ['established_date', '1642'],
        ['#', '<!-- Government -->'],
        ['leader_title', '[[Mayor of Port Aldwin|Mayor]]'],
        ['leader_name', '[[Oren Blake]]'],
        ['leader_party', '[[Harbour Labour Party|Harbour Labour]]'],
        ['#', '<!-- Area and population -->'],
        ['area_total_km2', '148.6'],
        ['population_as_of', '2023'],
        ['population_footnotes', '<ref name="census">{{cite web |title=Harrowfen population bulletin 2023 |publisher=Caldrossa Statistics Office |year=2023}}</ref>'],
        ['population_total', '412,000'],
        ['population_density_km2', 'auto'],
        ['timezone', '[[Caldrossan Standard Time|CST]]'],
        ['utc_offset', '+02:00'],
        ['postal_code', 'PA1–PA9'],
        ['website', '{{URL|portaldwin.example}}'],
      ]),
    ],
    body: `
'''Port Aldwin''' is a port city on the southern coast of [[Caldrossa]] and the administrative centre of [[Harrowfen Province]]. With a population of about 412,000 at the 2023 estimate, it is the country's second-largest city. The city grew around a deep natural harbour at the mouth of the River Aske, and shipping, fish processing and ferry services still shape its economy.

== History ==
A fishing settlement at the mouth of the Aske is recorded in a tax roll of 1642, which the city treats as its founding date. The harbour walls were rebuilt in 1788 under the engineer J. R. Tallow, whose design survived two great storms in the following century. Dr. Hester Quine opened the first public infirmary on St. Brannoc Street in 1851.<ref>{{cite book |last=Fenwick |first=Alys |title=A Harbour and Its People |year=1998 |page=41}}</ref>

During the twentieth century the port became a centre of ship repair. The last of the large dry docks closed in 1994, and the waterfront was redeveloped as housing and offices during the 2000s.

== Economy ==
The port handled about 3.5 million tonnes of cargo in 2023, most of it grain, timber and containers bound for inland Harrowfen.<ref name="port">{{cite web |title=Annual port statistics 2023 |publisher=Port Aldwin Harbour Board |year=2023}}</ref> [[Brightwater Logistics]], the largest private employer, has its headquarters in the Quayside district. A study by Marr et al. estimated that one job in six in the city depends directly on the harbour.

== Government ==
Port Aldwin is governed by a directly elected mayor and a city council of 39 members. The current mayor is [[Oren Blake]], first elected in 2017. The next mayoral election is due on 4 February 2025.

[[Category:Cities in Caldrossa]]
`,
  },
  revisions: [
    { at: '2025-01-06T09:12:00Z', by: tamsin, comment: 'New article on the city of Port Aldwin' },
    {
      at: '2025-01-21T14:05:00Z',
      by: tamsin,
      comment: 'Population: 2024 estimate from the statistics office',
      edit: (a) =>
        a
          .set('population_as_of', '2024')
          .set('population_footnotes', '<ref name="census">{{cite web |title=Harrowfen population bulletin 2024 |publisher=Caldrossa Statistics Office |year=2025}}</ref>')
          .set('population_total', '418,950')
          .replace('about 412,000 at the 2023 estimate', 'about 418,950 at the 2024 estimate'),
    },
    {
      at: '2025-02-05T16:30:00Z',
      by: tamsin,
      comment: 'Mayoral election result: Edda Marrow elected',
      edit: (a) =>
        a
          .set('leader_name', '[[Edda Marrow]]')
          .set('leader_party', '[[Civic Harbour Party|Civic Harbour]]')
          .replace(
            'The current mayor is [[Oren Blake]], first elected in 2017. The next mayoral election is due on 4 February 2025.',
            'The current mayor is [[Edda Marrow]], who won the [[2025 Port Aldwin mayoral election|election of 4 February 2025]] and succeeded [[Oren Blake]]. She is the first mayor from the Civic Harbour Party.',
          ),
    },
    {
      at: '2025-02-09T22:51:26Z',
      by: { ip: vandalIp },
      comment: 'fixed',
      edit: (a) => a.set('population_total', '999999999 lol'),
    },
    {
      at: '2025-02-10T01:14:10Z',
      by: halvard,
      comment: rollbackComment(vandalIp, 'Tamsin Orrell'),
      minor: true,
      revertPrevious: true,
    },
    {
      at: '2025-02-26T09:48:00Z',
      by: nadia,
      comment: 'Economy: 2024 port figures, new terminal',
      edit: (a) =>
        a
          .replace('about 3.5 million tonnes of cargo in 2023', 'about 3.7 million tonnes of cargo in 2024')
          .replace('|title=Annual port statistics 2023 |publisher=Port Aldwin Harbour Board |year=2023}}', '|title=Annual port statistics 2024 |publisher=Port Aldwin Harbour Board |year=2025}}')
          .replace(
            'has its headquarters in the Quayside district.',
            'has its headquarters in the Quayside district. A container terminal at Gull Point opened in January 2025 and doubled the port\'s crane capacity.',
          ),
    },
    {
      at: '2025-03-10T11:02:00Z',
      by: halvard,
      comment: 'Newer skyline photograph',
      edit: (a) => a.set('image_skyline', 'Port Aldwin harbour front 2025.jpg'),
    },
    {
      at: '2025-03-18T15:20:00Z',
      by: nadia,
      comment: 'Add transport section; copyedit lead',
      edit: (a) =>
        a
          .replace(
            'The city grew around a deep natural harbour at the mouth of the River Aske,',
            'The city developed around a deep natural harbour where the River Aske meets the sea,',
          )
          .insertBefore(
            '== Government ==',
            `== Transport ==
Ferries link Port Aldwin with the islands of the Skerrow group several times a day. The city is the southern terminus of the Harrowfen railway, and a tram line opened in 2019 connects the station with Gull Point.

`,
          ),
    },
  ],
};

const callumEverby: PageSpec = {
  id: 102,
  title: 'Callum Everby',
  initial: {
    head: ['{{Short description|Caldrossan footballer (born 1995)}}', '{{Use dmy dates|date=January 2025}}'],
    infoboxes: [
      infobox('Infobox football biography', [
        ['name', 'Callum Everby'],
        ['image', 'Callum Everby 2023.jpg'],
        ['image_size', '220px'],
        ['caption', 'Everby playing for Port Aldwin Rovers in 2023'],
        ['full_name', 'Callum James Everby'],
        ['birth_date', '{{birth date and age|1995|4|12|df=y}}'],
        ['birth_place', '[[Port Aldwin]], Caldrossa'],
        ['height', '1.81 m'],
        ['position', '[[Forward (association football)|Forward]]'],
        ['currentclub', '[[Port Aldwin Rovers F.C.|Port Aldwin Rovers]]'],
        ['clubnumber', '9'],
        ['youthyears1', '2006–2013'],
        ['youthclubs1', '[[Port Aldwin Rovers F.C.|Port Aldwin Rovers]]'],
        ['years1', '2013–2015'],
        ['clubs1', '[[Harrowfen United F.C.|Harrowfen United]]'],
        ['caps1', '74'],
        ['goals1', '18'],
        ['years2', '2015–'],
        ['clubs2', '[[Port Aldwin Rovers F.C.|Port Aldwin Rovers]]'],
        ['caps2', '212'],
        ['goals2', '71'],
        ['nationalyears1', '2017–'],
        ['nationalteam1', '[[Caldrossa national football team|Caldrossa]]'],
        ['nationalcaps1', '34'],
        ['nationalgoals1', '9'],
        ['club-update', '5 January 2025'],
        ['nationalteam-update', '19 November 2024'],
      ]),
    ],
    body: `
'''Callum James Everby''' (born 12 April 1995) is a Caldrossan professional [[association football|footballer]] who plays as a [[Forward (association football)|forward]] for [[Port Aldwin Rovers F.C.|Port Aldwin Rovers]] and the [[Caldrossa national football team]]. He has spent most of his senior career with Rovers, for whom he has scored 71 league goals.

== Early life ==
Everby was born in [[Port Aldwin]] and grew up near St. Brannoc Street, a short walk from the Rovers ground. He joined the club's academy at the age of eleven, where he was coached by J. R. Madoc.

== Club career ==
=== Harrowfen United ===
Everby made his senior debut for [[Harrowfen United F.C.|Harrowfen United]] in August 2013 and scored 18 league goals in two seasons. He returned to Port Aldwin in 2015 for a fee reported as 0.4 million crowns.<ref>{{cite news |title=Rovers bring Everby home |work=Harrowfen Courier |date=2 July 2015}}</ref>

=== Port Aldwin Rovers ===
He became Rovers' first-choice forward in the 2016–17 season. In 2022 he was named the league's Player of the Year after scoring 19 goals, a club record for the top division.

== International career ==
Everby made his debut for Caldrossa in March 2017 against Norland. He has won 34 caps and scored 9 international goals.

[[Category:Caldrossan footballers]]
`,
  },
  revisions: [
    { at: '2025-01-06T14:40:00Z', by: pell, comment: 'Create article' },
    {
      at: '2025-01-20T21:10:00Z',
      by: statsBot,
      comment: 'Bot: update club statistics',
      edit: (a) =>
        a
          .set('caps2', '214')
          .set('goals2', '73')
          .set('club-update', '19 January 2025')
          .replace('for whom he has scored 71 league goals', 'for whom he has scored 73 league goals'),
    },
    {
      at: '2025-02-03T22:45:00Z',
      by: pell,
      comment: 'Transfer to Kestrel Vale',
      edit: (a) =>
        a
          .set('currentclub', '[[Kestrel Vale F.C.|Kestrel Vale]]')
          .set('clubnumber', '17')
          .set('years2', '2015–2025')
          .add('years3', '2025–', 'goals2')
          .add('clubs3', '[[Kestrel Vale F.C.|Kestrel Vale]]', 'years3')
          .add('caps3', '0', 'clubs3')
          .add('goals3', '0', 'caps3')
          .set('club-update', '3 February 2025')
          .replace(
            'for [[Port Aldwin Rovers F.C.|Port Aldwin Rovers]] and the [[Caldrossa national football team]]. He has spent most of his senior career with Rovers, for whom he has scored 73 league goals.',
            'for [[Kestrel Vale F.C.|Kestrel Vale]] and the [[Caldrossa national football team]]. He spent most of his senior career with [[Port Aldwin Rovers F.C.|Port Aldwin Rovers]], for whom he scored 73 league goals.',
          )
          .insertBefore(
            '== International career ==',
            `=== Kestrel Vale ===
On 3 February 2025 Everby joined [[Kestrel Vale F.C.|Kestrel Vale]] on a contract until 2028. The fee was not disclosed, but the Harrowfen Courier put it at 2.5 million crowns.

`,
          ),
    },
    {
      at: '2025-02-17T20:30:00Z',
      by: statsBot,
      comment: 'Bot: update club statistics',
      edit: (a) => a.set('caps3', '2').set('goals3', '1').set('club-update', '16 February 2025'),
    },
    {
      at: '2025-03-03T19:15:00Z',
      by: pell,
      comment: 'First Kestrel Vale goals',
      edit: (a) =>
        a
          .set('caps3', '4')
          .set('goals3', '4')
          .set('club-update', '2 March 2025')
          .replace(
            'put it at 2.5 million crowns.',
            'put it at 2.5 million crowns. He scored a hat-trick against Saltmere Town on 1 March 2025, his third match for the club.',
          ),
    },
    {
      at: '2025-03-26T23:05:00Z',
      by: statsBot,
      comment: 'Bot: update international statistics',
      edit: (a) =>
        a
          .set('nationalcaps1', '35')
          .set('nationalgoals1', '10')
          .set('nationalteam-update', '25 March 2025')
          .replace('He has won 34 caps and scored 9 international goals.', 'He has won 35 caps and scored 10 international goals.'),
    },
  ],
};

const brightwater: PageSpec = {
  id: 103,
  title: 'Brightwater Logistics',
  initial: {
    head: ['{{Short description|Caldrossan freight and warehousing company}}'],
    infoboxes: [
      infobox('Infobox company', [
        ['name', 'Brightwater Logistics Ltd.'],
        ['logo', 'Brightwater Logistics logo.svg'],
        ['logo_size', '180px'],
        ['type', '[[Public company|Public]]'],
        ['traded_as', '{{hlist|PASX: BWL|PASX 40 component}}'],
        ['industry', '{{hlist|[[Freight transport]]|[[Warehouse|Warehousing]]}}'],
        ['founded', '{{start date and age|1968|5|2}}'],
        ['founder', 'Agnes Wyvern'],
        ['hq_location_city', '[[Port Aldwin]]'],
        ['hq_location_country', '[[Caldrossa]]'],
        ['num_locations', '212 depots (2024)'],
        ['area_served', 'Caldrossa and neighbouring countries'],
        ['key_people', '{{plainlist|\n* Ingrid Solberg ([[Chairperson|Chair]])\n* Marcus Penhallow ([[Chief executive officer|CEO]])\n}}'],
        ['revenue', '{{increase}} CRN 4.12 billion (2023)<ref name="ar">{{cite report |title=Annual Report & Accounts 2023 |publisher=Brightwater Logistics |year=2024}}</ref>'],
        ['operating_income', 'CRN 388 million (2023)'],
        ['net_income', 'CRN 241 million (2023)'],
        ['num_employees', '11,800 (2023)'],
        ['website', '{{URL|brightwater.example}}'],
      ]),
    ],
    body: `
'''Brightwater Logistics Ltd.''' is a Caldrossan freight, warehousing and parcel company based in [[Port Aldwin]]. Founded in 1968 as a single lorry depot, it is now the country's largest logistics group by revenue. Its shares trade on the Port Aldwin Stock Exchange.

== History ==
Agnes Wyvern founded the business with two lorries and a rented shed on the Quayside. The company bought the rival haulier Fenmoor Carriers in 1987 and opened its first bonded warehouse in 1990. It listed its shares in 2004, when it employed about 3,000 people.

== Operations ==
The company runs 212 depots and a fleet of about 4,600 vehicles. Revenue in 2023 was CRN 4.12 billion, of which parcels made up 38 percent.<ref name="ar" /> Around 11,800 people work for the group, most of them in Caldrossa.

== Leadership ==
Ingrid Solberg has chaired the board since 2019. Marcus Penhallow has been chief executive since 2016.

[[Category:Companies of Caldrossa]]
`,
  },
  revisions: [
    { at: '2025-01-07T08:25:00Z', by: ravi, comment: 'New article' },
    {
      at: '2025-02-06T08:05:00Z',
      by: ravi,
      comment: 'Annual results for 2024',
      edit: (a) =>
        a
          .set('revenue', '{{increase}} CRN 4.47 billion (2024)<ref name="ar">{{cite report |title=Annual Report & Accounts 2024 |publisher=Brightwater Logistics |year=2025}}</ref>')
          .set('operating_income', 'CRN 402 million (2024)')
          .set('net_income', '{{decrease}} CRN 229 million (2024)')
          .set('num_employees', '12,350 (2024)')
          .replace(
            'Revenue in 2023 was CRN 4.12 billion, of which parcels made up 38 percent.',
            'Revenue in 2024 was CRN 4.47 billion, of which parcels made up 41 percent.',
          )
          .replace('Around 11,800 people work for the group,', 'Around 12,350 people work for the group,'),
    },
    {
      at: '2025-02-20T13:40:00Z',
      by: tamsin,
      comment: 'New chief executive',
      edit: (a) =>
        a
          .set('key_people', '{{plainlist|\n* Ingrid Solberg ([[Chairperson|Chair]])\n* Dr. Leona Fairweather ([[Chief executive officer|CEO]])\n}}')
          .replace(
            'Marcus Penhallow has been chief executive since 2016.',
            'Dr. Leona Fairweather succeeded Marcus Penhallow as chief executive on 17 February 2025. She previously ran the parcels division.',
          ),
    },
    {
      at: '2025-03-05T10:10:00Z',
      by: ravi,
      comment: 'Depot count',
      edit: (a) =>
        a.set('num_locations', '219 depots (2025)').replace('The company runs 212 depots', 'The company runs 219 depots'),
    },
    {
      at: '2025-03-26T16:55:00Z',
      by: halvard,
      comment: 'Remove depot count: the cited page no longer gives it',
      edit: (a) =>
        a
          .removeKey('num_locations')
          .replace('The company runs 219 depots and a fleet of about 4,600 vehicles.', 'The company runs a fleet of about 4,600 vehicles.'),
    },
  ],
};

const orenBlake: PageSpec = {
  id: 104,
  title: 'Oren Blake',
  initial: {
    head: ['{{Short description|Caldrossan politician}}'],
    infoboxes: [
      infobox('Infobox officeholder', [
        ['name', 'Oren Blake'],
        ['image', 'Oren Blake 2019.jpg'],
        ['alt', 'Blake speaking at a lectern'],
        ['office', '[[Mayor of Port Aldwin]]'],
        ['term_start', '14 February 2017'],
        ['term_end', ''],
        ['predecessor', 'Sefton Ashdown'],
        ['successor', ''],
        ['birth_date', '{{birth date and age|1961|9|3|df=y}}'],
        ['birth_place', 'Saltmere, [[Caldrossa]]'],
        ['party', '[[Harbour Labour Party]]'],
        ['spouse', 'Ruth Blake'],
        ['alma_mater', 'University of Harrowfen'],
      ]),
    ],
    body: `
'''Oren Blake''' (born 3 September 1961) is a Caldrossan politician who has served as [[Mayor of Port Aldwin]] since 2017. A member of the [[Harbour Labour Party]], he previously led the dockworkers' union.

== Early life and career ==
Blake was born in Saltmere and moved to [[Port Aldwin]] as a child. He studied economics at the University of Harrowfen and worked as a crane operator before he was elected a union official in 1989.

== Mayor of Port Aldwin ==
Blake won the 2017 mayoral election with 52.6 percent of the vote and was re-elected in 2021. His administration built the Gull Point tram line and froze harbour fees for four years.

[[Category:Mayors of Port Aldwin]]
`,
  },
  revisions: [
    { at: '2025-01-07T12:30:00Z', by: isolde, comment: 'Create page' },
    {
      at: '2025-01-24T09:00:00Z',
      by: isolde,
      comment: 'Re-election campaign',
      edit: (a) =>
        a.replace(
          'froze harbour fees for four years.',
          'froze harbour fees for four years. He is seeking a third term in the election of 4 February 2025.',
        ),
    },
    {
      at: '2025-02-05T19:02:00Z',
      by: isolde,
      comment: 'Lost the 2025 election; successor',
      edit: (a) =>
        a
          .set('term_end', '5 February 2025')
          .set('successor', '[[Edda Marrow]]')
          .replace(
            'is a Caldrossan politician who has served as [[Mayor of Port Aldwin]] since 2017.',
            'is a Caldrossan politician who served as [[Mayor of Port Aldwin]] from 2017 to 2025.',
          )
          .replace(
            'He is seeking a third term in the election of 4 February 2025.',
            'He lost the [[2025 Port Aldwin mayoral election]] to [[Edda Marrow]], taking 35.2 percent of the vote.',
          ),
    },
    {
      at: '2025-02-25T17:20:00Z',
      by: nadia,
      comment: 'Later life',
      edit: (a) =>
        a.insertBefore(
          '[[Category:',
          `== Later life ==
After leaving office Blake joined the board of the Harrowfen Maritime Museum. He has said he will not stand for election again.

`,
        ),
    },
    {
      at: '2025-03-14T08:45:00Z',
      by: isolde,
      comment: 'Add occupation; trim lead',
      edit: (a) =>
        a
          .add('occupation', 'Trade unionist, politician', 'alma_mater')
          .replace(" A member of the [[Harbour Labour Party]], he previously led the dockworkers' union.", ''),
    },
  ],
};

const eddaMarrow: PageSpec = {
  id: 105,
  title: 'Edda Marrow',
  initial: {
    head: ['{{Short description|Caldrossan harbour pilot and politician}}'],
    infoboxes: [
      infobox('Infobox person', [
        ['name', 'Edda Marrow'],
        ['image', 'Edda Marrow 2024.jpg'],
        ['caption', 'Marrow in 2024'],
        ['birth_date', '{{birth date and age|1979|11|23|df=y}}'],
        ['birth_place', '[[Port Aldwin]], Caldrossa'],
        ['alma_mater', 'Skerrow Nautical College'],
        ['occupation', 'Harbour pilot, community organiser'],
        ['known_for', 'Campaign to reopen the Gull Point ferry'],
        ['party', 'Independent'],
        ['spouse', 'Idris Marrow'],
      ]),
    ],
    body: `
'''Edda Marrow''' (born 23 November 1979) is a Caldrossan harbour pilot and community organiser from [[Port Aldwin]]. She led the campaign that reopened the Gull Point ferry in 2021. She is a candidate in the [[2025 Port Aldwin mayoral election]].

== Early life ==
Marrow grew up in the Quayside district, where her father ran a chandlery on St. Brannoc Street. She trained at Skerrow Nautical College and qualified as a harbour pilot in 2004.

== Activism ==
In 2018 she founded the Gull Point Ferry Association, which collected 14,000 signatures for the reopening of the crossing. The city council reversed its closure decision in 2020, and the ferry resumed service in May 2021.

[[Category:People from Port Aldwin]]
`,
  },
  revisions: [
    { at: '2025-01-07T16:05:00Z', by: tamsin, comment: 'New biography' },
    {
      at: '2025-01-22T20:15:00Z',
      by: tamsin,
      comment: 'Campaign and polls',
      edit: (a) =>
        a
          .replace(
            'She is a candidate in the [[2025 Port Aldwin mayoral election]].',
            'She is standing in the [[2025 Port Aldwin mayoral election]] with the support of the Civic Harbour Party.',
          )
          .insertBefore(
            '[[Category:',
            `== Mayoral campaign ==
Marrow announced her candidacy in October 2024. A poll published in January 2025 put her at 31 percent, two points behind the incumbent [[Oren Blake]].

`,
          ),
    },
    {
      at: '2025-02-05T18:20:00Z',
      by: tamsin,
      comment: 'Elected mayor: officeholder infobox',
      edit: (a) =>
        a
          .template('Infobox officeholder')
          .add('office', '[[Mayor of Port Aldwin]]', 'caption')
          .add('term_start', '5 February 2025', 'office')
          .add('predecessor', '[[Oren Blake]]', 'term_start')
          .removeKey('occupation')
          .removeKey('known_for')
          .set('party', '[[Civic Harbour Party]]')
          .replace(
            "is a Caldrossan harbour pilot and community organiser from [[Port Aldwin]]. She led the campaign that reopened the Gull Point ferry in 2021. She is standing in the [[2025 Port Aldwin mayoral election]] with the support of the Civic Harbour Party.",
            "is a Caldrossan politician and former harbour pilot who has been [[Mayor of Port Aldwin]] since 5 February 2025. She led the campaign that reopened the Gull Point ferry in 2021.",
          )
          .replace(
            'A poll published in January 2025 put her at 31 percent, two points behind the incumbent [[Oren Blake]].',
            'A poll published in January 2025 put her at 31 percent, two points behind the incumbent [[Oren Blake]]. She won the election on 4 February 2025 with 47.9 percent of the vote.',
          ),
    },
    {
      at: '2025-02-12T10:30:00Z',
      by: halvard,
      comment: 'Party membership',
      edit: (a) =>
        a.replace(
          'She won the election on 4 February 2025 with 47.9 percent of the vote.',
          'She joined the Civic Harbour Party in November 2024 and won the election on 4 February 2025 with 47.9 percent of the vote.',
        ),
    },
    {
      at: '2025-03-19T14:00:00Z',
      by: tamsin,
      comment: 'First weeks in office',
      edit: (a) =>
        a.replace(
          '[[Category:',
          `== Mayor of Port Aldwin ==
In her first weeks in office Marrow suspended the sale of council land at Gull Point and appointed Dr. Anwen Hale as deputy mayor. Her first budget, presented on 12 March 2025, set aside 1.2 million crowns for ferry repairs.

[[Category:Mayors of Port Aldwin]]
[[Category:`,
        ),
    },
  ],
};

const saltmarshLantern: PageSpec = {
  id: 106,
  title: 'The Saltmarsh Lantern',
  initial: {
    head: ['{{Short description|2025 Caldrossan mystery film}}', '{{Use dmy dates|date=January 2025}}'],
    infoboxes: [
      infobox('Infobox film', [
        ['name', 'The Saltmarsh Lantern'],
        ['image', 'The Saltmarsh Lantern poster.jpg'],
        ['alt', 'A lantern glowing over a flooded marsh at night'],
        ['caption', 'Theatrical release poster'],
        ['director', '[[Wren Castellane]]'],
        ['producer', '{{plainlist|\n* Odile Marsh\n* Bertram Kaye\n}}'],
        ['writer', 'Wren Castellane'],
        ['starring', '{{plainlist|\n* [[Sunniva Drake]]\n* [[Tobias Penrith]]\n* Lale Demir\n}}'],
        ['music', 'Corin Vale'],
        ['cinematography', 'Hamish Oduya'],
        ['studio', 'Greywater Pictures'],
        ['distributor', 'Aske Films'],
        ['released', '{{film date|2025|1|10|df=y}}'],
        ['runtime', '118 minutes'],
        ['country', 'Caldrossa'],
        ['language', 'English'],
        ['budget', 'CRN 14 million<ref name="budget">{{cite news |title=Castellane starts shooting marsh thriller |work=Screen Harrowfen |date=3 March 2024}}</ref>'],
      ]),
    ],
    body: `
'''''The Saltmarsh Lantern''''' is an upcoming 2025 Caldrossan [[mystery film]] written and directed by [[Wren Castellane]]. It stars [[Sunniva Drake]] as a coastguard officer who investigates a light seen on a flooded marsh. The film is due to open in cinemas on 10 January 2025.

== Production ==
Castellane wrote the script in 2022 after reading about a lighthouse keeper's diary from the 1880s. Principal photography took place on the Skerrow marshes between March and May 2024, with interiors shot at St. Ives Road studios in Port Aldwin.

== Release ==
Aske Films acquired the distribution rights in the autumn of 2024. A trailer released in November 2024 was viewed 1.3 million times in its first week.

[[Category:2025 films]]
`,
  },
  revisions: [
    { at: '2025-01-08T10:00:00Z', by: ravi, comment: 'New film article' },
    {
      at: '2025-01-13T08:50:00Z',
      by: ravi,
      comment: 'Released; opening weekend',
      edit: (a) =>
        a
          .add('gross', 'CRN 2.1 million<ref name="bo">{{cite web |title=Weekend box office |publisher=Caldrossa Film Board |date=12 January 2025}}</ref>', 'budget')
          .replace(
            'is an upcoming 2025 Caldrossan [[mystery film]]',
            'is a 2025 Caldrossan [[mystery film]]',
          )
          .replace(
            'The film is due to open in cinemas on 10 January 2025.',
            'The film opened in cinemas on 10 January 2025.',
          )
          .replace(
            'was viewed 1.3 million times in its first week.',
            'was viewed 1.3 million times in its first week. The film took CRN 2.1 million in its opening weekend.',
          ),
    },
    {
      at: '2025-01-27T12:10:00Z',
      by: ravi,
      comment: 'Box office update',
      edit: (a) =>
        a
          .set('gross', 'CRN 6.8 million<ref name="bo">{{cite web |title=Weekend box office |publisher=Caldrossa Film Board |date=26 January 2025}}</ref>')
          .replace(
            'The film took CRN 2.1 million in its opening weekend.',
            'The film took CRN 2.1 million in its opening weekend and CRN 6.8 million by the end of its third week.',
          ),
    },
    {
      at: '2025-02-03T09:30:00Z',
      by: pell,
      comment: 'Box office; revised budget from the producers',
      edit: (a) =>
        a
          .set('budget', 'CRN 15.5 million<ref name="budget">{{cite news |title=Lantern producers open their books |work=Screen Harrowfen |date=31 January 2025}}</ref>')
          .set('gross', 'CRN 9.4 million<ref name="bo">{{cite web |title=Weekend box office |publisher=Caldrossa Film Board |date=2 February 2025}}</ref>')
          .replace('CRN 6.8 million by the end of its third week.', 'CRN 9.4 million by the end of its fourth week.'),
    },
    {
      at: '2025-02-10T11:45:00Z',
      by: ravi,
      comment: 'Box office update',
      edit: (a) =>
        a
          .set('gross', 'CRN 11.2 million<ref name="bo">{{cite web |title=Weekend box office |publisher=Caldrossa Film Board |date=9 February 2025}}</ref>')
          .replace('CRN 9.4 million by the end of its fourth week.', 'CRN 11.2 million by the end of its fifth week.'),
    },
    {
      at: '2025-03-03T14:20:00Z',
      by: nadia,
      comment: 'Reception section; box office',
      edit: (a) =>
        a
          .set('gross', 'CRN 13.9 million<ref name="bo">{{cite web |title=Weekend box office |publisher=Caldrossa Film Board |date=2 March 2025}}</ref>')
          .replace('CRN 11.2 million by the end of its fifth week.', 'CRN 13.9 million by the start of March.')
          .insertBefore(
            '[[Category:',
            `== Reception ==
Critics praised Drake's performance and the film's use of natural light. A survey of reviews by Okoro et al. for the Harrowfen Film Quarterly rated it the best Caldrossan release of the winter.

`,
          ),
    },
    {
      at: '2025-03-24T10:05:00Z',
      by: ravi,
      comment: 'Box office update',
      edit: (a) =>
        a
          .set('gross', 'CRN 14.6 million<ref name="bo">{{cite web |title=Weekend box office |publisher=Caldrossa Film Board |date=23 March 2025}}</ref>')
          .replace('CRN 13.9 million by the start of March.', 'CRN 14.6 million by late March, close to its budget.'),
    },
  ],
};

const glassOrchard: PageSpec = {
  id: 107,
  title: 'Glass Orchard',
  initial: {
    head: ['{{Short description|Caldrossan indie folk band}}'],
    infoboxes: [
      infobox('Infobox musical artist', [
        ['name', 'Glass Orchard'],
        ['image', 'Glass Orchard live 2022.jpg'],
        ['image_size', '250px'],
        ['caption', 'Glass Orchard performing at the Aske Festival in 2022'],
        ['background', 'group_or_band'],
        ['origin', '[[Port Aldwin]], Caldrossa'],
        ['genre', '{{hlist|[[Indie folk]]|[[Dream pop]]}}'],
        ['years_active', '2011–present'],
        ['label', 'Harbourlight Records'],
        ['current_members', '{{plainlist|\n* Maren Tidwell\n* Fen Aldous\n* Joss Okonkwo\n}}'],
        ['past_members', 'Priya Hale'],
        ['website', '{{URL|glassorchard.example}}'],
      ]),
    ],
    body: `
'''Glass Orchard''' is a Caldrossan [[indie folk]] band formed in [[Port Aldwin]] in 2011. The band is known for close vocal harmonies and songs about the sea. It has released four studio albums.

== History ==
Maren Tidwell and Fen Aldous met at a folk club on St. Brannoc Street and began playing together in 2011. Their first album, ''Low Tide Hymns'', sold about 20,000 copies and won the Harrowfen Music Prize in 2014.<ref>{{cite news |title=Harbour harmonies win the prize |work=Harrowfen Courier |date=9 May 2014}}</ref> Drummer Priya Hale left in 2019 and was replaced by Joss Okonkwo.

== Musical style ==
Reviewers compare the band's sound to older coastal folk music. Tidwell writes most of the lyrics, while Aldous arranges the string parts.

[[Category:Caldrossan musical groups]]
`,
  },
  revisions: [
    { at: '2025-01-09T19:45:00Z', by: isolde, comment: 'New article about the band' },
    {
      at: '2025-02-04T13:25:00Z',
      by: isolde,
      comment: 'New label and new member',
      edit: (a) =>
        a
          .set('label', '{{hlist|Harbourlight Records (2011–2024)|Northlight Records (2025–present)}}')
          .set('current_members', '{{plainlist|\n* Maren Tidwell\n* Fen Aldous\n* Joss Okonkwo\n* Ada Vesk\n}}')
          .replace(
            'was replaced by Joss Okonkwo.',
            'was replaced by Joss Okonkwo. In January 2025 the band signed with Northlight Records and added the violinist Ada Vesk as a fourth member.',
          ),
    },
    {
      at: '2025-02-19T10:04:00Z',
      by: isolde,
      comment: moveComment(isolde, 'Glass Orchard', 'Glass Orchard (band)', 'disambiguation from the 2016 album of the same name'),
      minor: true,
      moveTo: 'Glass Orchard (band)',
    },
    {
      at: '2025-03-06T18:30:00Z',
      by: nadia,
      comment: 'Style before history; discography',
      edit: (a) =>
        a
          .moveBlock('== Musical style ==', '== History ==')
          .replace('It has released four studio albums.', 'It has released five studio albums.')
          .insertBefore(
            '[[Category:',
            `== Discography ==
* ''Low Tide Hymns'' (2013)
* ''Glass Orchard'' (2016)
* ''Winter Quay'' (2019)
* ''The Skerrow Lights'' (2022)
* ''Salt and Thread'' (2025)

`,
          ),
    },
    {
      at: '2025-03-20T09:15:00Z',
      by: halvard,
      comment: 'Image size',
      minor: true,
      edit: (a) => a.set('image_size', '270px'),
    },
  ],
};

const roversSeason: PageSpec = {
  id: 108,
  title: '2024–25 Port Aldwin Rovers F.C. season',
  initial: {
    head: ['{{Use dmy dates|date=January 2025}}'],
    infoboxes: [
      infobox('Infobox football club season', [
        ['club', '[[Port Aldwin Rovers F.C.]]'],
        ['season', '2024–25'],
        ['bgcolor', '#1d3c78'],
        ['chairman', 'Gideon Rusk'],
        ['manager', '[[Teodor Lask]]'],
        ['stadium', 'Quayside Park'],
        ['league', '[[Caldrossan Premier Division]]'],
        ['league result', '5th'],
        ['cup1', '[[Caldrossan Cup]]'],
        ['cup1 result', 'Fourth round'],
        ['league topscorer', '[[Callum Everby]] (9)'],
        ['highest attendance', '18,402 vs Kestrel Vale<br />(26 December 2024)'],
        ['average attendance', '14,210'],
        ['prevseason', '[[2023–24 Port Aldwin Rovers F.C. season|2023–24]]'],
        ['nextseason', '[[2025–26 Port Aldwin Rovers F.C. season|2025–26]]'],
      ]),
    ],
    body: `
The '''2024–25 season''' is [[Port Aldwin Rovers F.C.]]'s 61st season in the [[Caldrossan Premier Division]]. The club is managed by [[Teodor Lask]] for the third season. Rovers are fifth in the table at the midway point.

== Season summary ==
Rovers began the season with four wins in five matches. A run of three defeats in November, including a 0–3 loss at Kestrel Vale, cost them the lead. [[Callum Everby]] has scored 9 of the team's 27 league goals.

== Cup ==
Rovers entered the [[Caldrossan Cup]] in the third round and beat Saltmere Town 2–1 after extra time.

[[Category:Port Aldwin Rovers F.C. seasons]]
`,
  },
  revisions: [
    { at: '2025-01-10T11:20:00Z', by: pell, comment: 'Season article' },
    {
      at: '2025-01-26T22:10:00Z',
      by: statsBot,
      comment: 'Bot: league table and scorers',
      edit: (a) =>
        a
          .set('league result', '4th')
          .set('league topscorer', '[[Callum Everby]] (10)')
          .replace('Rovers are fifth in the table at the midway point.', 'Rovers are fourth in the table after 21 matches.')
          .replace('has scored 9 of the team\'s 27 league goals.', 'has scored 10 of the team\'s 31 league goals.'),
    },
    {
      at: '2025-02-08T21:55:00Z',
      by: pell,
      comment: 'Everby sold; cup fifth round; table',
      edit: (a) =>
        a
          .set('league result', '3rd')
          .set('cup1 result', 'Fifth round')
          .replace('Rovers are fourth in the table after 21 matches.', 'Rovers are third in the table after 23 matches.')
          .replace(
            'has scored 10 of the team\'s 31 league goals.',
            'scored 10 of the team\'s 31 league goals before he was sold to Kestrel Vale on 3 February 2025.',
          )
          .replace(
            'beat Saltmere Town 2–1 after extra time.',
            'beat Saltmere Town 2–1 after extra time. They won 1–0 at Harrowfen United in the fourth round.',
          ),
    },
    {
      at: '2025-02-13T12:00:00Z',
      by: halvard,
      comment: 'Club colour',
      minor: true,
      edit: (a) => a.set('bgcolor', '#17336a'),
    },
    {
      at: '2025-02-23T20:40:00Z',
      by: statsBot,
      comment: 'Bot: league table and attendance',
      edit: (a) =>
        a
          .set('league result', '2nd')
          .set('average attendance', '14,480')
          .replace('Rovers are third in the table after 23 matches.', 'Rovers are second in the table after 25 matches.'),
    },
    {
      at: '2025-03-09T21:30:00Z',
      by: pell,
      comment: 'Cup fifth round win; joint top scorer',
      edit: (a) =>
        a
          .set('cup1 result', 'Quarter-finals')
          .set('league topscorer', '{{hlist|[[Callum Everby]]|Dario Kent}} (10 each)')
          .replace(
            'They won 1–0 at Harrowfen United in the fourth round.',
            'They won 1–0 at Harrowfen United in the fourth round and 3–2 against Norbridge in the fifth.',
          )
          .replace(
            'before he was sold to Kestrel Vale on 3 February 2025.',
            'before he was sold to Kestrel Vale on 3 February 2025. Dario Kent matched his total with two goals against Fenmoor on 8 March.',
          ),
    },
    {
      at: '2025-03-23T19:50:00Z',
      by: statsBot,
      comment: 'Bot: league table',
      edit: (a) =>
        a
          .set('league result', '1st')
          .replace('Rovers are second in the table after 25 matches.', 'Rovers lead the table after 28 matches.'),
    },
  ],
};

const caldrossa: PageSpec = {
  id: 109,
  title: 'Caldrossa',
  initial: {
    head: ['{{Short description|Island country}}'],
    infoboxes: [
      infobox('Infobox country', [
        ['conventional_long_name', 'Republic of Caldrossa'],
        ['common_name', 'Caldrossa'],
        ['image_flag', 'Flag of Caldrossa.svg'],
        ['image_coat', 'Coat of arms of Caldrossa.svg'],
        ['capital', '[[Vellan]]'],
        ['largest_city', 'capital'],
        ['official_languages', 'Caldrossan'],
        ['government_type', '[[Unitary state|Unitary]] [[parliamentary republic]]'],
        ['leader_title1', '[[President of Caldrossa|President]]'],
        ['leader_name1', 'Anselm Grieve'],
        ['leader_title2', '[[Prime Minister of Caldrossa|Prime Minister]]'],
        ['leader_name2', 'Liesl Varga'],
        ['legislature', 'National Assembly'],
        ['area_km2', '41,370'],
        ['population_estimate', '3,912,000<ref name="stats">{{cite web |title=Population estimate 2024 |publisher=Caldrossa Statistics Office |year=2024}}</ref>'],
        ['population_estimate_year', '2024'],
        ['GDP_PPP', '$112.4 billion'],
        ['GDP_PPP_year', '2024'],
        ['HDI', '0.874'],
        ['HDI_year', '2022'],
        ['currency', 'Caldrossan crown'],
        ['currency_code', 'CRN'],
        ['drives_on', 'right'],
      ]),
    ],
    body: `
'''Caldrossa''', officially the '''Republic of Caldrossa''', is an island country of about 3.9 million people. Its capital and largest city is [[Vellan]], and its second city is [[Port Aldwin]]. The country is a parliamentary republic with a largely ceremonial president.

== History ==
The islands were united under a single crown in 1311. Caldrossa became a republic in 1921 after a referendum in which 61 percent voted to abolish the monarchy. It joined the U.N. in 1946, one of the first small states to do so.

== Geography ==
The main island is mountainous in the north and flat in the south, where the Harrowfen marshes drain into the sea. The highest point is Mount Corra at 2,104 metres.

== Politics ==
The National Assembly has 120 members elected for four years. Liesl Varga has been prime minister since 2021, leading a coalition of three parties.

[[Category:Island countries]]
`,
  },
  revisions: [
    { at: '2025-01-11T09:00:00Z', by: ravi, comment: 'Country article' },
    {
      at: '2025-02-07T15:35:00Z',
      by: halvard,
      comment: 'New prime minister after the confidence vote',
      edit: (a) =>
        a
          .set('leader_name2', 'Tomas Ferrante')
          .replace(
            'Liesl Varga has been prime minister since 2021, leading a coalition of three parties.',
            'Tomas Ferrante became prime minister on 6 February 2025 after Liesl Varga lost a vote of confidence. He leads a coalition of three parties.',
          ),
    },
    {
      at: '2025-02-21T10:20:00Z',
      by: ravi,
      comment: 'Population estimate 2025',
      edit: (a) =>
        a
          .set('population_estimate', '3,948,500<ref name="stats">{{cite web |title=Population estimate 2025 |publisher=Caldrossa Statistics Office |year=2025}}</ref>')
          .set('population_estimate_year', '2025'),
    },
    {
      at: '2025-03-12T13:05:00Z',
      by: nadia,
      comment: 'HDI and GDP updates',
      edit: (a) =>
        a.set('GDP_PPP', '$118.9 billion').set('GDP_PPP_year', '2025').set('HDI', '0.879').set('HDI_year', '2023'),
    },
    {
      at: '2025-03-27T17:40:00Z',
      by: ravi,
      comment: 'Reorder sections; copyedit',
      edit: (a) =>
        a
          .moveBlock('== Geography ==', '== History ==')
          .replace('It joined the U.N. in 1946, one of the first small states to do so.', 'It joined the U.N. in 1946.')
          .replace('is an island country of about 3.9 million people.', 'is an island country with a population of just under 4 million.'),
    },
  ],
};

const quillstone: PageSpec = {
  id: 110,
  title: 'Quillstone',
  initial: {
    head: ['{{Short description|Embedded database engine}}', '{{Use mdy dates|date=January 2025}}'],
    infoboxes: [
      infobox('Infobox software', [
        ['name', 'Quillstone'],
        ['logo', 'Quillstone logo.svg'],
        ['screenshot', 'Quillstone shell 4.png'],
        ['caption', 'The Quillstone interactive shell'],
        ['author', 'Mirela Voss'],
        ['developer', 'The Quillstone Project'],
        ['released', '{{Start date and age|2014|6|2}}'],
        ['latest_release_version', '4.1.3'],
        ['latest_release_date', '{{Start date and age|2024|12|9}}'],
        ['programming_language', '[[Rust (programming language)|Rust]], [[C (programming language)|C]]'],
        ['operating_system', '[[Cross-platform]]'],
        ['genre', '[[Embedded database]]'],
        ['license', '[[Apache License|Apache 2.0]]'],
        ['website', '{{URL|quillstone.example}}'],
      ]),
      infobox('Infobox file format', [
        ['name', 'Quillstone data file'],
        ['extension', '.qsd'],
        ['mime', 'application/x-quillstone'],
        ['developer', 'The Quillstone Project'],
        ['released', '2014'],
        ['latest_release_version', '3'],
        ['type', 'Database file format'],
        ['open', 'Yes'],
      ]),
    ],
    body: `
'''Quillstone''' is an [[open-source software|open-source]] embedded database engine written in [[Rust (programming language)|Rust]] and [[C (programming language)|C]]. It stores a whole database in a single file and is used in desktop applications, games and small devices. The current stable release is 4.1.3, published in December 2024.

== History ==
Mirela Voss started Quillstone in 2014 while working on logging software for research ships. Version 2.0 in 2017 added transactions, and version 3.0 in 2020 introduced a query planner written with A. K. Demir.<ref>{{cite conference |last1=Voss |first1=Mirela |last2=Demir |first2=A. K. |title=Planning queries in a single-file store |conference=Harrowfen Systems Workshop |year=2020}}</ref> The project moved from the U.S. hosting service it began on to a foundation in Vellan in 2022.

== File format ==
%%INFOBOX 1%%
A Quillstone database is a single file with the extension <code>.qsd</code>. The format is documented and versioned separately from the engine; version 3 of the format has been in use since 2020.

== Adoption ==
The engine is bundled with several Caldrossan tax and payroll programs. A 2023 survey by Lind et al. found it in about 1.5 percent of open-source projects that embed a database.

[[Category:Embedded databases]]
`,
  },
  revisions: [
    { at: '2025-01-13T15:30:00Z', by: pell, comment: 'New article' },
    {
      at: '2025-01-30T18:00:00Z',
      by: pell,
      comment: 'Release 4.2.0',
      edit: (a) =>
        a
          .set('latest_release_version', '4.2.0')
          .set('latest_release_date', '{{Start date and age|2025|1|29}}')
          .replace('The current stable release is 4.1.3, published in December 2024.', 'The current stable release is 4.2.0, published in January 2025.'),
    },
    {
      at: '2025-02-06T07:40:00Z',
      by: pell,
      comment: 'Release 4.2.1 and first 4.3 beta',
      edit: (a) =>
        a
          .set('latest_release_version', '4.2.1')
          .set('latest_release_date', '{{Start date and age|2025|2|5}}')
          .add('latest_preview_version', '4.3.0-beta.1', 'latest_release_date')
          .add('latest_preview_date', '{{Start date and age|2025|2|5}}', 'latest_preview_version')
          .replace(
            'The current stable release is 4.2.0, published in January 2025.',
            'The current stable release is 4.2.1, published in February 2025.',
          ),
    },
    {
      at: '2025-02-27T16:10:00Z',
      by: isolde,
      comment: 'File format version 4',
      edit: (a) =>
        a
          .set('latest_release_version', '4', 1)
          .replace(
            'version 3 of the format has been in use since 2020.',
            'version 4 of the format, adopted in February 2025, adds page checksums. Files in version 3 can still be read.',
          ),
    },
    {
      at: '2025-03-13T12:25:00Z',
      by: pell,
      comment: 'Release 4.3.0; preview removed',
      edit: (a) =>
        a
          .set('latest_release_version', '4.3.0')
          .set('latest_release_date', '{{Start date and age|2025|3|12}}')
          .removeKey('latest_preview_version')
          .removeKey('latest_preview_date')
          .replace(
            'The current stable release is 4.2.1, published in February 2025.',
            'The current stable release is 4.3.0, published in March 2025.',
          ),
    },
    {
      at: '2025-03-25T09:05:00Z',
      by: nadia,
      comment: 'Copyedit; adoption',
      edit: (a) =>
        a
          .replace(
            'The project moved from the U.S. hosting service it began on to a foundation in Vellan in 2022.',
            'Since 2022 the project has been run by a foundation in Vellan.',
          )
          .replace(
            'embed a database.',
            'embed a database. The Caldrossa Statistics Office adopted it for its field survey tablets in 2024.',
          ),
    },
  ],
};

const mayoralElection: PageSpec = {
  id: 111,
  title: '2025 Port Aldwin mayoral election',
  initial: {
    head: ['{{Use dmy dates|date=February 2025}}'],
    infoboxes: [
      infobox('Infobox election', [
        ['election_name', '2025 Port Aldwin mayoral election'],
        ['country', 'Caldrossa'],
        ['type', 'presidential'],
        ['previous_election', '2021 Port Aldwin mayoral election'],
        ['previous_year', '2021'],
        ['next_year', '2029'],
        ['election_date', '4 February 2025'],
        ['turnout', '46.0% (provisional)'],
        ['image1', 'Edda Marrow 2024.jpg'],
        ['candidate1', '[[Edda Marrow]]'],
        ['party1', '[[Civic Harbour Party]]'],
        ['popular_vote1', '52,318'],
        ['percentage1', '47.6%'],
        ['image2', 'Oren Blake 2019.jpg'],
        ['candidate2', '[[Oren Blake]]'],
        ['party2', '[[Harbour Labour Party]]'],
        ['popular_vote2', '38,940'],
        ['percentage2', '35.4%'],
        ['candidate3', 'Colm Rigby'],
        ['party3', 'Independent'],
        ['popular_vote3', '18,660'],
        ['percentage3', '17.0%'],
        ['title', '[[Mayor of Port Aldwin|Mayor]]'],
        ['before_election', '[[Oren Blake]]'],
        ['before_party', '[[Harbour Labour Party|Harbour Labour]]'],
      ]),
    ],
    body: `
The '''2025 Port Aldwin mayoral election''' was held on 4 February 2025 to elect the [[Mayor of Port Aldwin]]. Provisional results with 88 percent of ballots counted show [[Edda Marrow]] of the [[Civic Harbour Party]] ahead of the incumbent, [[Oren Blake]].

== Background ==
Blake had been mayor since 2017 and sought a third term. Marrow, a harbour pilot known for the Gull Point ferry campaign, joined the Civic Harbour Party in November 2024.

== Results ==
Counting continued overnight in the Quayside and Gull Point wards.

[[Category:2025 elections in Caldrossa]]
`,
  },
  revisions: [
    { at: '2025-02-04T21:40:00Z', by: tamsin, comment: 'Election night: provisional results' },
    {
      at: '2025-02-05T08:15:00Z',
      by: tamsin,
      comment: 'Full count; Marrow elected',
      edit: (a) =>
        a
          .set('turnout', '48.2%')
          .set('popular_vote1', '59,117')
          .set('percentage1', '47.9%')
          .set('popular_vote2', '43,450')
          .set('percentage2', '35.2%')
          .set('popular_vote3', '20,857')
          .set('percentage3', '16.9%')
          .add('after_election', '[[Edda Marrow]]', 'before_party')
          .add('after_party', '[[Civic Harbour Party|Civic Harbour]]', 'after_election')
          .replace(
            'Provisional results with 88 percent of ballots counted show [[Edda Marrow]] of the [[Civic Harbour Party]] ahead of the incumbent, [[Oren Blake]].',
            '[[Edda Marrow]] of the [[Civic Harbour Party]] defeated the incumbent, [[Oren Blake]], with 47.9 percent of the vote.',
          )
          .replace(
            'Counting continued overnight in the Quayside and Gull Point wards.',
            'Counting finished at 06:30 on 5 February. Turnout was 48.2 percent, up from 44.7 percent in 2021.',
          ),
    },
    {
      at: '2025-02-11T16:00:00Z',
      by: halvard,
      comment: 'Certified results after the Gull Point recount',
      edit: (a) =>
        a
          .set('popular_vote2', '43,462')
          .replace(
            'Turnout was 48.2 percent, up from 44.7 percent in 2021.',
            'Turnout was 48.2 percent, up from 44.7 percent in 2021. A recount in Gull Point ward added 12 votes for Blake, and the result was certified on 11 February.',
          ),
    },
    {
      at: '2025-03-04T12:35:00Z',
      by: nadia,
      comment: 'Aftermath',
      edit: (a) =>
        a.insertBefore(
          '[[Category:',
          `== Aftermath ==
Marrow took office on 5 February 2025. Blake conceded on the morning after the vote and congratulated her on a "clear result".

`,
        ),
    },
    {
      at: '2025-03-24T10:50:00Z',
      by: tamsin,
      comment: 'Turnout correction from the electoral office',
      edit: (a) =>
        a
          .set('turnout', '48.3%<ref>{{cite web |title=Final report on the mayoral election |publisher=Port Aldwin Electoral Office |date=20 March 2025}}</ref>')
          .replace('Turnout was 48.2 percent,', 'Turnout was 48.3 percent,'),
    },
  ],
};

/** Every page with content, in page-id order. */
const contentPages: PageSpec[] = [
  portAldwin,
  callumEverby,
  brightwater,
  orenBlake,
  eddaMarrow,
  saltmarshLantern,
  glassOrchard,
  roversSeason,
  caldrossa,
  quillstone,
  mayoralElection,
];

/** Left behind by the move of page 107; exercises redirect skipping. */
const redirectPages: RedirectPageSpec[] = [
  {
    id: 112,
    title: 'Glass Orchard',
    target: 'Glass Orchard (band)',
    at: '2025-02-19T10:04:00Z',
    by: isolde,
    comment: moveComment(isolde, 'Glass Orchard', 'Glass Orchard (band)', 'disambiguation from the 2016 album of the same name'),
  },
];

// ---------------------------------------------------------------------------------------------
// Building the export
// ---------------------------------------------------------------------------------------------

interface BuiltRevision {
  pageId: number;
  /** Position among all revisions in the order they are declared, to break timestamp ties. */
  declared: number;
  revisionId: number;
  parentId: number | null;
  spec: { at: string; by: Contributor; comment: string; minor?: boolean };
  text: string;
}

interface BuiltPage {
  id: number;
  title: string;
  redirectTarget: string | null;
  revisions: BuiltRevision[];
}

const FIRST_REVISION_ID = 1001;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function buildPage(spec: PageSpec): BuiltPage {
  const states: Article[] = [];
  let title = spec.title;
  const revisions: BuiltRevision[] = spec.revisions.map((revision, index) => {
    let state: Article;
    if (index === 0) {
      state = cloneArticle(spec.initial);
    } else if (revision.revertPrevious) {
      const restored = states[index - 2];
      if (!restored) throw new Error(`${spec.title}: nothing to revert to at ${revision.at}`);
      state = cloneArticle(restored);
    } else {
      state = cloneArticle(states[index - 1]!);
      if (revision.moveTo) title = revision.moveTo;
      revision.edit?.(new ArticleEditor(state));
    }
    states.push(state);
    return { pageId: spec.id, declared: 0, revisionId: 0, parentId: null, spec: revision, text: renderArticle(state) };
  });
  return { id: spec.id, title, redirectTarget: null, revisions };
}

function buildRedirectPage(spec: RedirectPageSpec): BuiltPage {
  const text = `#REDIRECT [[${spec.target}]]\n\n{{Redirect category shell|\n{{R from move}}\n}}\n`;
  return {
    id: spec.id,
    title: spec.title,
    redirectTarget: spec.target,
    revisions: [{ pageId: spec.id, declared: 0, revisionId: 0, parentId: null, spec, text }],
  };
}

/** Builds all pages and numbers revisions wiki-wide in time order, like a real wiki. */
export function buildSamplePages(): BuiltPage[] {
  const pages = [...contentPages.map(buildPage), ...redirectPages.map(buildRedirectPage)].sort((a, b) => a.id - b.id);
  const all = pages.flatMap((page) => page.revisions);
  all.forEach((revision, index) => {
    if (!TIMESTAMP.test(revision.spec.at)) throw new Error(`bad timestamp ${revision.spec.at}`);
    revision.declared = index;
  });
  const inTimeOrder = [...all].sort((a, b) =>
    a.spec.at < b.spec.at ? -1 : a.spec.at > b.spec.at ? 1 : a.declared - b.declared,
  );
  inTimeOrder.forEach((revision, index) => {
    revision.revisionId = FIRST_REVISION_ID + index;
  });
  for (const page of pages) {
    page.revisions.forEach((revision, index) => {
      const previous = page.revisions[index - 1];
      if (previous && previous.spec.at >= revision.spec.at) throw new Error(`page ${page.id}: timestamps out of order`);
      revision.parentId = previous ? previous.revisionId : null;
    });
  }
  return pages;
}

/** MediaWiki's `rev_sha1`: SHA-1 of the UTF-8 text as a base-36 number, zero-padded to 31 digits. */
export function mediaWikiSha1(text: string): string {
  const hex = createHash('sha1').update(text, 'utf8').digest('hex');
  return BigInt(`0x${hex}`).toString(36).padStart(31, '0');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const NAMESPACES: Array<[number, string]> = [
  [-2, 'Media'],
  [-1, 'Special'],
  [0, ''],
  [1, 'Talk'],
  [2, 'User'],
  [3, 'User talk'],
  [4, 'wikidelta sample'],
  [5, 'wikidelta sample talk'],
  [6, 'File'],
  [7, 'File talk'],
  [8, 'MediaWiki'],
  [9, 'MediaWiki talk'],
  [10, 'Template'],
  [11, 'Template talk'],
  [12, 'Help'],
  [13, 'Help talk'],
  [14, 'Category'],
  [15, 'Category talk'],
];

function renderRevision(revision: BuiltRevision): string[] {
  const { spec, text } = revision;
  const lines = ['    <revision>', `      <id>${revision.revisionId}</id>`];
  if (revision.parentId !== null) lines.push(`      <parentid>${revision.parentId}</parentid>`);
  lines.push(`      <timestamp>${spec.at}</timestamp>`, '      <contributor>');
  if ('ip' in spec.by) {
    lines.push(`        <ip>${escapeXml(spec.by.ip)}</ip>`);
  } else {
    lines.push(`        <username>${escapeXml(spec.by.username)}</username>`, `        <id>${spec.by.id}</id>`);
  }
  lines.push('      </contributor>');
  if (spec.minor) lines.push('      <minor />');
  lines.push(
    `      <comment>${escapeXml(spec.comment)}</comment>`,
    '      <model>wikitext</model>',
    '      <format>text/x-wiki</format>',
    `      <text bytes="${Buffer.byteLength(text, 'utf8')}" xml:space="preserve">${escapeXml(text)}</text>`,
    `      <sha1>${mediaWikiSha1(text)}</sha1>`,
    '    </revision>',
  );
  return lines;
}

/** The whole export as a string. */
export function buildSampleXml(): string {
  const lines = [
    '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.mediawiki.org/xml/export-0.11/ http://www.mediawiki.org/xml/export-0.11.xsd" version="0.11" xml:lang="en">',
    '  <siteinfo>',
    '    <sitename>wikidelta sample</sitename>',
    '    <dbname>samplewiki</dbname>',
    '    <base>https://sample.wikidelta.example/wiki/Main_Page</base>',
    '    <generator>wikidelta scripts/make-sample.ts (MediaWiki export format 0.11)</generator>',
    '    <case>first-letter</case>',
    '    <namespaces>',
    ...NAMESPACES.map(([key, name]) =>
      name === ''
        ? `      <namespace key="${key}" case="first-letter" />`
        : `      <namespace key="${key}" case="first-letter">${escapeXml(name)}</namespace>`,
    ),
    '    </namespaces>',
    '  </siteinfo>',
  ];
  for (const page of buildSamplePages()) {
    lines.push('  <page>', `    <title>${escapeXml(page.title)}</title>`, '    <ns>0</ns>', `    <id>${page.id}</id>`);
    if (page.redirectTarget !== null) lines.push(`    <redirect title="${escapeXml(page.redirectTarget)}" />`);
    for (const revision of page.revisions) lines.push(...renderRevision(revision));
    lines.push('  </page>');
  }
  lines.push('</mediawiki>');
  return lines.join('\n') + '\n';
}

export const DEFAULT_SAMPLE_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'sample', 'sample-history.xml');

function main(argv: string[]): void {
  const outFlag = argv.indexOf('--out');
  let outPath = DEFAULT_SAMPLE_PATH;
  if (outFlag >= 0) {
    const value = argv[outFlag + 1];
    if (!value) throw new Error('--out needs a path');
    outPath = resolve(value);
  }
  const xml = buildSampleXml();
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, xml, 'utf8');
  const pages = buildSamplePages();
  const revisions = pages.reduce((sum, page) => sum + page.revisions.length, 0);
  process.stdout.write(`wrote ${outPath}: ${pages.length} pages, ${revisions} revisions, ${Buffer.byteLength(xml)} bytes\n`);
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(resolve(invokedPath)).href) {
  main(process.argv.slice(2));
}
