/**
 * The SQLite cache of LLM calls, keyed by everything that determines a reply: model, prompt name
 * and version, the rendered input and the parameters. A rerun finds every call it made before and
 * sends nothing. Stored are validated replies and the verdict that a server's replies stayed
 * invalid (the item was marked; asking again would give the same), never transport failures.
 */
import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import type { Result } from '../result.js';

const StoredOutcome = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);

export interface CacheKeyParts {
  model: string;
  prompt: string;
  promptVersion: string;
  input: string;
  parameters: Record<string, unknown>;
}

/** The cache key of a request: a SHA-256 of the model, prompt, prompt version, input and parameters. */
export function cacheKey(parts: CacheKeyParts): string {
  return createHash('sha256').update(JSON.stringify([parts.model, parts.prompt, parts.promptVersion, parts.input, parts.parameters])).digest('hex');
}

/** LLM replies keyed by everything that determines them (model, prompt and version, input, parameters), so a rerun sends nothing it sent before. */
export class ResponseCache {
  // Asked on every model call: prepared once.
  private readonly selectOutcome;
  private readonly insertOutcome;

  constructor(db: Database) {
    this.selectOutcome = db.prepare('SELECT outcome FROM llm_cache WHERE key = ?').pluck();
    this.insertOutcome = db.prepare(
      `INSERT OR REPLACE INTO llm_cache (key, model, prompt, prompt_version, outcome, prompt_tokens, completion_tokens, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** The stored outcome of a request by its key, or undefined when never stored. */
  get(key: string): Result<unknown> | undefined {
    const row = this.selectOutcome.get(key);
    if (typeof row !== 'string') return undefined;
    // An unreadable entry is a miss: the call is made again and the entry replaced.
    let stored: unknown;
    try {
      stored = JSON.parse(row);
    } catch {
      return undefined;
    }
    const parsed = StoredOutcome.safeParse(stored);
    return parsed.success ? (parsed.data as Result<unknown>) : undefined;
  }

  /**
   * Stores the outcome of a request with its tokens, replacing any held.
   *
   * @param key `cacheKey(parts)`.
   * @param parts what the key was made of, kept for inspection.
   */
  put(key: string, parts: CacheKeyParts, outcome: Result<unknown>, tokens: { prompt: number; completion: number }): void {
    this.insertOutcome.run(key, parts.model, parts.prompt, parts.promptVersion, JSON.stringify(outcome), tokens.prompt, tokens.completion, new Date().toISOString());
  }
}
