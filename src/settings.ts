import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { UserError } from './errors.js';
import { withoutByteOrderMark } from './text/byteOrderMark.js';

const VERSION = '0.1.0';

/**
 * A batch thread's old generation by default (the `threadHeapMb` setting, src/queue/threadRunner.ts):
 * a parse keeps little beyond its recent results, but under V8's default limit (a quarter of the
 * machine's memory) each thread let garbage pile up to hundreds of MB before collecting it, which
 * took the simulated week's peak RSS past 1 GB; with this limit it was 796 MiB (docs/SCALE.md). The
 * deep-page and size-cap tests parse under it; what the largest real page's parse holds was not
 * measured, so a thread that runs out fails the run with one line naming the batch's pages and the
 * setting to raise, and is replaced.
 */
export const DEFAULT_THREAD_HEAP_MB = 256;

/** How a wiki is asked when nothing says otherwise: the settings' defaults, and a library caller's who passes no settings. */
export const WIKI_DEFAULTS = { maxInFlight: 3, maxRetries: 6, retryBaseMs: 1000, requestTimeoutSeconds: 120, maxReplyMb: 64 } as const;

/** Queries kept per domain in a week (DailyQA's cap); the classify stage's default when given none. */
export const DEFAULT_DOMAIN_CAP = 750;

/** A number as written in decimal, in a config file's number or an environment variable's text. */
const DECIMAL = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * A numeric setting: a number, or a text that writes one in decimal. Not `z.coerce`, which reads `true`
 * as 1 and "0x10" as 16: a setting written so is a mistake, refused with its name.
 */
function settingNumber<Schema extends z.ZodNumber>(schema: Schema) {
  return z.preprocess((value) => (typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value), schema);
}

/** Every setting, its type, bounds and default. Flags override the environment, which overrides the file. */
const SettingsSchema = z
  .object({
    db: z.string().min(1).default('data/wikidelta.sqlite'),
    userAgent: z
      .string()
      .min(10, 'a descriptive User-Agent (tool, version, contact) is required by Wikimedia')
      .default(`wikidelta/${VERSION} (Wikipedia change datasets; set WIKIDELTA_USER_AGENT to add your contact)`),
    maxInFlight: settingNumber(z.number().int().min(1).max(3, 'Wikimedia asks for at most 3 requests in flight')).default(WIKI_DEFAULTS.maxInFlight),
    perMinute: settingNumber(z.number().int().min(1).max(6000)).default(200),
    maxRetries: settingNumber(z.number().int().min(0).max(20)).default(WIKI_DEFAULTS.maxRetries),
    retryBaseMs: settingNumber(z.number().int().min(1).max(600_000)).default(WIKI_DEFAULTS.retryBaseMs),
    /** One wiki request, from sending it to the last byte of its reply. */
    requestTimeoutSeconds: settingNumber(z.number().min(1).max(3600)).default(WIKI_DEFAULTS.requestTimeoutSeconds),
    /** A wiki reply larger than this is refused (MediaWiki caps its own replies at 8 MB by default). */
    maxReplyMb: settingNumber(z.number().min(1).max(4096)).default(WIKI_DEFAULTS.maxReplyMb),
    revertHours: settingNumber(z.number().min(0).max(24 * 60)).default(48),
    /** The old-generation heap of each batch thread of a weekly run without the queue (src/queue/threadRunner.ts). */
    threadHeapMb: settingNumber(z.number().int().min(128).max(65_536)).default(DEFAULT_THREAD_HEAP_MB),
    /** The longest a snapshot's article may take to cut into sentences on its thread before it is skipped (real articles take under a second). */
    parseDeadlineSeconds: settingNumber(z.number().min(1).max(86_400)).default(120),
    seed: settingNumber(z.number().int()).default(1),
    wiki: z.string().min(1).optional(),
    articleBaseUrl: z.string().url().optional(),
    keepContent: z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean()).default(false),
    /** Unset: openai when OPENAI_API_KEY is set, else offline (decided where the LLM is opened). */
    llm: z.enum(['offline', 'openai']).optional(),
    llmModel: z.string().min(1).default('gpt-4o-mini'),
    llmConcurrency: settingNumber(z.number().int().min(1).max(64)).default(4),
    llmPerMinute: settingNumber(z.number().int().min(1).max(100_000)).default(500),
    /** Retries of one request after 429, 5xx, timeouts and network errors. */
    llmMaxRetries: settingNumber(z.number().int().min(0).max(20)).default(5),
    /** Further attempts when a reply fails validation, before the item is marked with the reason. */
    llmInvalidRetries: settingNumber(z.number().int().min(0).max(10)).default(2),
    /** One LLM request, from sending it to the last byte of its reply. */
    llmTimeoutSeconds: settingNumber(z.number().min(1).max(3600)).default(60),
    /** An LLM reply larger than this is refused as a failure of the server (replies are bounded by each prompt's max_tokens). */
    llmMaxReplyKb: settingNumber(z.number().int().min(16).max(1 << 20)).default(1024),
    llmTemperature: settingNumber(z.number().min(0).max(2)).default(0),
    /** Price per 1,000 tokens, for the cost `status` shows; no cost is reported without them. */
    llmPricePer1kInput: settingNumber(z.number().min(0)).optional(),
    llmPricePer1kOutput: settingNumber(z.number().min(0)).optional(),
    /** Queries kept per domain and week, drawn by seeded sampling without replacement. */
    domainCap: settingNumber(z.number().int().min(1)).default(DEFAULT_DOMAIN_CAP),
    /** Descriptiveness search: auto (the wiki's search when --api is given, else the local index), wiki, local. */
    search: z.enum(['auto', 'wiki', 'local']).default('auto'),
  })
  .strict();

export type Settings = z.infer<typeof SettingsSchema>;
type SettingName = keyof Settings;

const ENVIRONMENT: Record<SettingName, string> = {
  db: 'WIKIDELTA_DB',
  userAgent: 'WIKIDELTA_USER_AGENT',
  maxInFlight: 'WIKIDELTA_MAX_IN_FLIGHT',
  perMinute: 'WIKIDELTA_PER_MINUTE',
  maxRetries: 'WIKIDELTA_MAX_RETRIES',
  retryBaseMs: 'WIKIDELTA_RETRY_BASE_MS',
  requestTimeoutSeconds: 'WIKIDELTA_REQUEST_TIMEOUT_SECONDS',
  maxReplyMb: 'WIKIDELTA_MAX_REPLY_MB',
  revertHours: 'WIKIDELTA_REVERT_HOURS',
  threadHeapMb: 'WIKIDELTA_THREAD_HEAP_MB',
  parseDeadlineSeconds: 'WIKIDELTA_PARSE_DEADLINE_SECONDS',
  seed: 'WIKIDELTA_SEED',
  wiki: 'WIKIDELTA_WIKI',
  articleBaseUrl: 'WIKIDELTA_ARTICLE_BASE_URL',
  keepContent: 'WIKIDELTA_KEEP_CONTENT',
  llm: 'WIKIDELTA_LLM',
  llmModel: 'WIKIDELTA_LLM_MODEL',
  llmConcurrency: 'WIKIDELTA_LLM_CONCURRENCY',
  llmPerMinute: 'WIKIDELTA_LLM_PER_MINUTE',
  llmMaxRetries: 'WIKIDELTA_LLM_MAX_RETRIES',
  llmInvalidRetries: 'WIKIDELTA_LLM_INVALID_RETRIES',
  llmTimeoutSeconds: 'WIKIDELTA_LLM_TIMEOUT_SECONDS',
  llmMaxReplyKb: 'WIKIDELTA_LLM_MAX_REPLY_KB',
  llmTemperature: 'WIKIDELTA_LLM_TEMPERATURE',
  llmPricePer1kInput: 'WIKIDELTA_LLM_PRICE_PER_1K_INPUT',
  llmPricePer1kOutput: 'WIKIDELTA_LLM_PRICE_PER_1K_OUTPUT',
  domainCap: 'WIKIDELTA_DOMAIN_CAP',
  search: 'WIKIDELTA_SEARCH',
};

const DEFAULT_CONFIG_FILE = 'wikidelta.config.json';

/**
 * Merges the config file, the environment and the flags, then validates the result; a bad value is
 * reported with its name and where it came from.
 */
export function loadSettings(options: {
  flags?: Partial<Record<SettingName, unknown>>;
  env?: NodeJS.ProcessEnv;
  configPath?: string;
  cwd?: string;
}): Settings {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const origin = new Map<string, string>();
  // No prototype: a config file's "__proto__" is then a key like any other, refused as unknown, not an object's prototype.
  const merged: Record<string, unknown> = Object.create(null) as Record<string, unknown>;

  const explicitPath = options.configPath ?? env.WIKIDELTA_CONFIG;
  const path = explicitPath ? resolve(cwd, explicitPath) : resolve(cwd, DEFAULT_CONFIG_FILE);
  if (explicitPath || existsSync(path)) {
    const file = readConfigFile(path);
    const unknown = Object.keys(file).filter((name) => !Object.hasOwn(ENVIRONMENT, name));
    if (unknown.length > 0) throw new UserError('E_CONFIG_UNKNOWN_SETTING', `unknown setting "${unknown.join('", "')}" in config file ${path}`);
    for (const [name, value] of Object.entries(file)) {
      // Coerced, null, [7] and {} would be settings 0, 7 and NaN: a setting is a text, a number or a boolean.
      if (value === null || typeof value === 'object') {
        throw new UserError('E_SETTING_INVALID', `invalid setting ${name}=${JSON.stringify(value).slice(0, 100)} (from config file ${path}): expected a text, a number or a boolean; leave a setting out for its default`);
      }
      merged[name] = value;
      origin.set(name, `config file ${path}`);
    }
  }
  for (const [name, variable] of Object.entries(ENVIRONMENT)) {
    const value = env[variable];
    // A blank variable is unset, as an empty one is (a number read from "  " would be 0).
    if (value !== undefined && value.trim() !== '') {
      merged[name] = value;
      origin.set(name, `environment ${variable}`);
    }
  }
  for (const [name, value] of Object.entries(options.flags ?? {})) {
    if (value === undefined) continue;
    merged[name] = value;
    origin.set(name, `flag --${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  }

  const parsed = SettingsSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    const name = String(issue.path[0] ?? '');
    throw new UserError('E_SETTING_INVALID', `invalid setting ${name}=${JSON.stringify(merged[name])} (from ${origin.get(name) ?? 'default'}): ${issue.message}`);
  }
  return parsed.data;
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError('E_FILE_UNREADABLE', `cannot read config file ${path}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(withoutByteOrderMark(text));
  } catch {
    value = undefined;
  }
  // Not z.record: it drops a "__proto__" key, which would then be neither used nor refused.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UserError('E_CONFIG_INVALID', `config file ${path} is not a JSON object`);
  return value as Record<string, unknown>;
}

export const wikideltaVersion = VERSION;
