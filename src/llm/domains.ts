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
      'bridge', 'airport', 'port', 'building', 'stadium', 'school district'],
  ],
  [
    'Politics and Law',
    ['officeholder', 'politician', 'election', 'legislature', 'political party', 'government agency', 'court case',
      'court', 'judge', 'legislation', 'treaty', 'military person', 'military unit', 'military conflict', 'war faction',
      'country leader', 'president', 'prime minister', 'governor', 'mayor', 'diplomat', 'constituency', 'referendum',
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
