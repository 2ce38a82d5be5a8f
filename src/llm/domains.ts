/**
 * The seven DailyQA domains and the reviewed mapping from infobox template names to them, the
 * offline classifier. Template names are as the parser normalises them (lowercase, without the
 * "Infobox" prefix, spaces kept). Kept in one place so that a reviewer can read and extend it.
 */
export const DOMAINS = [
  'Science and Technology',
  'Culture and Arts',
  'Geography and Environment',
  'Politics and Law',
  'Business and Economics',
  'Sports and Entertainment',
  'Others',
] as const;
export type Domain = (typeof DOMAINS)[number];

const TEMPLATE_DOMAINS: ReadonlyArray<[Domain, readonly string[]]> = [
  [
    'Science and Technology',
    ['software', 'file format', 'programming language', 'operating system', 'website', 'video game engine', 'computer',
      'mobile phone', 'spaceflight', 'spacecraft', 'rocket', 'planet', 'galaxy', 'star', 'comet', 'chemical element',
      'chembox', 'drugbox', 'drug', 'disease', 'medical condition', 'protein', 'gene', 'taxobox', 'speciesbox',
      'automatic taxobox', 'scientist', 'academic', 'university', 'telescope', 'aircraft type', 'weapon', 'automobile',
      'engine', 'processor', 'minor planet', 'mineral'],
  ],
  [
    'Culture and Arts',
    ['film', 'book', 'album', 'song', 'single', 'musical artist', 'artist', 'writer', 'poet', 'painting', 'artwork',
      'museum', 'television', 'television season', 'television episode', 'anime', 'comic', 'magazine', 'newspaper',
      'musical', 'opera', 'play', 'language', 'religion', 'religious building', 'church', 'monument', 'ethnic group',
      'award', 'film festival', 'architect', 'philosopher', 'animanga/header', 'animanga/video', 'animanga/print', 'animanga/game',
      'royalty', 'noble', 'saint', 'character'],
  ],
  [
    'Geography and Environment',
    ['settlement', 'country', 'city', 'town', 'village', 'province', 'state', 'county', 'river', 'lake', 'mountain',
      'island', 'protected area', 'park', 'body of water', 'volcano', 'glacier', 'weather event', 'hurricane',
      'tropical cyclone', 'earthquake', 'wildfire', 'flood', 'region', 'historic site', 'nrhp', 'station', 'road',
      'bridge', 'airport', 'port', 'building', 'stadium', 'school district', 'district', 'municipality', 'human settlement',
      'commune', 'borough'],
  ],
  [
    'Politics and Law',
    ['officeholder', 'politician', 'election', 'legislature', 'political party', 'government agency', 'court case',
      'court', 'judge', 'legislation', 'treaty', 'military person', 'military unit', 'military conflict', 'war faction',
      'country leader', 'president', 'prime minister', 'governor', 'mayor', 'diplomat', 'constituency', 'referendum',
      // Districts that elect someone, which Geography's 'district' would otherwise take.
      'electoral district', 'electoral division', 'electorate', 'congressional district', 'legislative district',
      'criminal', 'civil conflict', 'international organization', 'state agency', 'police'],
  ],
  [
    'Business and Economics',
    ['company', 'brand', 'product', 'bank', 'stock exchange', 'currency', 'economy', 'airline', 'retailer',
      'restaurant', 'business', 'businessperson', 'investor', 'industry', 'hotel', 'shopping mall', 'public transit',
      'rail line', 'ship', 'power station', 'mine', 'market'],
  ],
  [
    'Sports and Entertainment',
    ['football biography', 'football club', 'football club season', 'football league', 'football tournament',
      'football match', 'sportsperson', 'athlete', 'basketball biography', 'basketball club', 'ice hockey player',
      'baseball biography', 'cricketer', 'cricket team', 'tennis biography', 'golfer', 'boxer', 'martial artist',
      'racing driver', 'cyclist', 'swimmer', 'nfl biography', 'nfl team', 'sports team', 'sports season', 'sports league',
      'sports event', 'olympic games', 'olympic event', 'tournament', 'rugby biography', 'rugby team', 'wrestler',
      'professional wrestler', 'chess player', 'video game', 'esports player', 'game show', 'reality show',
      'tv channel', 'television channel', 'radio station', 'youtube personality', 'comedian', 'actor', 'model',
      'racehorse', 'horse race', 'grand prix', 'f1 season', 'motorsport season', 'season'],
  ],
];

const byTemplate = new Map<string, Domain>(TEMPLATE_DOMAINS.flatMap(([domain, names]) => names.map((name) => [name, domain] as const)));

/** Instance of (P31) and, for a person, occupation (P106): what an entity is, named by labels. */
const INSTANCE_OF = 'P31';
const OCCUPATION = 'P106';
const HUMAN = 'human';

/**
 * The domain of an article: its template's, else, for an entity whose facts have no template of
 * their own, that of the first class it is an instance of (P31) the mapping knows, and for a person
 * (class `human`) that of an occupation (P106): `big city` is Geography, a `politician` Politics.
 */
export function domainOfArticle(article: { template: string; infobox: Readonly<Record<string, string>> }): Domain {
  const byTemplate = domainOfTemplate(article.template);
  if (byTemplate !== 'Others') return byTemplate;
  const classes = valuesOf(article.infobox[INSTANCE_OF]);
  const names = classes.includes(HUMAN) ? [...valuesOf(article.infobox[OCCUPATION]), ...classes] : classes;
  return names.map(domainOfTemplate).find((domain) => domain !== 'Others') ?? 'Others';
}

/** An entity fact's values: best-ranked statements joined by "; ". */
function valuesOf(value: string | undefined): string[] {
  return value === undefined ? [] : value.split('; ').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
}

/**
 * The domain of an infobox template: an exact reviewed name first, then the longest reviewed name
 * the template ends with ("football club season" before "season"), else Others. A template label
 * such as "film#2" (a page's second film infobox) counts as its template.
 */
export function domainOfTemplate(template: string): Domain {
  const name = template.replace(/#\d+$/, '').trim().toLowerCase().replace(/_/g, ' ');
  const exact = byTemplate.get(name);
  if (exact) return exact;
  let best: { length: number; domain: Domain } | null = null;
  for (const [reviewed, domain] of byTemplate) {
    if ((name.endsWith(` ${reviewed}`) || name.startsWith(`${reviewed} `)) && reviewed.length > (best?.length ?? 0)) {
      best = { length: reviewed.length, domain };
    }
  }
  return best?.domain ?? 'Others';
}
