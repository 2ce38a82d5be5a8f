/**
 * Readable names of infobox keys for template questions: a reviewed list for common keys whose
 * words alone read badly ("num_employees" → "number of employees"), else the key's own words,
 * with a trailing number kept apart ("caps3" → "caps 3").
 */
const KEY_LABELS: Readonly<Record<string, string>> = {
  population_total: 'total population',
  population_est: 'estimated population',
  population_estimate: 'estimated population',
  population_as_of: 'year of the population figure',
  pop: 'population',
  num_employees: 'number of employees',
  num_locations: 'number of locations',
  key_people: 'key people',
  subsid: 'subsidiaries',
  currentclub: 'current club',
  clubnumber: 'shirt number',
  club_update: 'date of the last club statistics update',
  nationalteam_update: 'date of the last national team statistics update',
  leader_name: 'leader',
  leader_party: "leader's party",
  leader_title: "leader's title",
  gdp_ppp: 'GDP (PPP)',
  gdp_ppp_year: 'year of the GDP (PPP) figure',
  gdp_nominal: 'nominal GDP',
  latest_release_version: 'latest release version',
  latest_release_date: 'latest release date',
  latest_preview_version: 'latest preview version',
  latest_preview_date: 'latest preview date',
  term_start: 'start of term',
  term_end: 'end of term',
  league_result: 'league position',
  cup1_result: 'cup result',
  popular_vote: 'popular vote',
  current_members: 'current members',
  past_members: 'past members',
  years_active: 'years active',
  net_income: 'net income',
  operating_income: 'operating income',
  area_total_km2: 'total area in square kilometres',
  elevation_m: 'elevation in metres',
  elevation_ft: 'elevation in feet',
};

/** A key's readable name: its label when the source names it (a Wikidata property's English label), else as above. */
export function keyLabel(key: string, labels?: Readonly<Record<string, string>>): string {
  const named = labels?.[key];
  if (named !== undefined) return named;
  const normalised = key.toLowerCase().replace(/[\s-]+/g, '_');
  const reviewed = KEY_LABELS[normalised] ?? KEY_LABELS[normalised.replace(/\d+$/, '')];
  if (reviewed !== undefined) {
    const number = /(\d+)$/.exec(normalised)?.[1];
    return number !== undefined && KEY_LABELS[normalised] === undefined ? `${reviewed} ${number}` : reviewed;
  }
  return normalised
    .replace(/([a-z])(\d+)$/, '$1 $2')
    .replace(/_+/g, ' ')
    .trim();
}
