/**
 * An audit of a judge's verdicts as a maintainer makes it and annotators use it: `audit create --of
 * predictions` on an evaluation directory, for alice and bob who both rate every item, then the audit
 * server on a free port, where each posts verdicts with their own token.
 */
import { startAuditServer } from '../src/serve/server.js';
import { Store } from '../src/store/store.js';
import { runCliOk } from './cli.js';

export interface PredictionAudit {
  /** The items sampled, each with the judge's verdict as its stratum. */
  items: Array<{ id: number; stratum: string }>;
  tokens: Record<'alice' | 'bob', string>;
  url: string;
  /** Posts a judgment as `annotator`, as the page does. */
  judge(annotator: 'alice' | 'bob', body: Record<string, unknown>): Promise<Response>;
  close(): Promise<void>;
}

/** Creates the audit `name` of `size` items from `evaluation` (the `--out` of `evaluate … --judge`) in `db`, and serves it. */
export async function servePredictionAudit(db: string, evaluation: string, name: string, size: number): Promise<PredictionAudit> {
  const created = JSON.parse(
    (await runCliOk(['--db', db, '--json', 'audit', 'create', '--name', name, '--of', 'predictions', '--evaluation', evaluation, '--annotators', 'alice,bob', '--raters', '2', '--size', String(size)])).stdout,
  ) as { items: PredictionAudit['items']; annotators: Array<{ name: string; token: string }> };
  const tokens = Object.fromEntries(created.annotators.map((a) => [a.name, a.token])) as PredictionAudit['tokens'];
  const store = Store.open(db);
  const server = await startAuditServer({ store, host: '127.0.0.1', port: 0 });
  return {
    items: created.items,
    tokens,
    url: server.url,
    judge: (annotator, body) =>
      fetch(`${server.url}/api/judgments`, { method: 'POST', headers: { authorization: `Bearer ${tokens[annotator]}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    close: async () => {
      await server.close();
      store.close();
    },
  };
}
