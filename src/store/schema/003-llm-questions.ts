import type { Migration } from './migration.js';

export const llmQuestions: Migration = {
  version: 3,
  name: 'question provenance, checks, domains, LLM response cache and usage',
  sql: `
      -- How each data unit's question was made (or why it could not be): one row per query id, also
      -- for failed generations, which have no row in queries.
      CREATE TABLE question_generations (
        query_id TEXT PRIMARY KEY,
        wiki TEXT NOT NULL,
        window_start TEXT NOT NULL,
        window_end TEXT NOT NULL,
        page_id INTEGER NOT NULL,
        rev_id INTEGER NOT NULL,
        prev_rev_id INTEGER NOT NULL,
        -- the data unit's infobox key
        target_key TEXT NOT NULL,
        -- the data unit's new value: the answer the question was made for
        gold TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
        reason TEXT,
        prompt TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        seed TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX question_generations_window ON question_generations (wiki, window_start, window_end);

      -- Quality checks of a generated question; a failed one keeps its row and its reason.
      CREATE TABLE question_checks (
        query_id TEXT NOT NULL,
        check_name TEXT NOT NULL CHECK (check_name IN ('correctness', 'descriptiveness')),
        passed INTEGER NOT NULL,
        reason TEXT NOT NULL,
        -- the prediction (correctness) or the titles found (descriptiveness)
        detail TEXT,
        -- provider:model of the answering LLM, or the search backend
        backend TEXT NOT NULL,
        prompt TEXT,
        prompt_version TEXT,
        checked_at TEXT NOT NULL,
        PRIMARY KEY (query_id, check_name)
      );

      CREATE TABLE question_domains (
        query_id TEXT PRIMARY KEY,
        domain TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        prompt TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        -- why the domain is what it is when it is not the classifier's own answer (a failed call)
        reason TEXT,
        -- 1 when the seeded per-domain cap left the query out
        capped INTEGER NOT NULL DEFAULT 0
      );

      -- One entry per distinct LLM call (model, prompt name and version, rendered input, parameters):
      -- the validated reply, or the verdict that the server's replies were invalid.
      CREATE TABLE llm_cache (
        key TEXT PRIMARY KEY,
        model TEXT NOT NULL,
        prompt TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        outcome TEXT NOT NULL,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      );

      -- Tokens and calls per run and model; cost when a price was configured.
      CREATE TABLE llm_usage (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        requests INTEGER NOT NULL DEFAULT 0,
        cache_hits INTEGER NOT NULL DEFAULT 0,
        failures INTEGER NOT NULL DEFAULT 0,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        cost REAL,
        PRIMARY KEY (run_id, provider, model)
      );
  `,
};
