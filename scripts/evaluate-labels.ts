/**
 * Measures the sentence labeler on the evaluation set (data/eval, docs/ARCHITECTURE.md §7.3): accuracy
 * per expected label, overall, the confusion matrix and the pairs it got wrong.
 *
 *   npm run eval:labels                      offline: USE Lite, heuristic NLI, no LLM step
 *   npm run eval:labels -- --llm scripted    the LLM step through testkit's OpenAI-compatible server and
 *                                            its stand-in verdict (changed when the prompt reports differing
 *                                            facts, else same; every third reply junk): measures the step's
 *                                            plumbing and cost, not a model's judgement
 *   npm run eval:labels -- --llm openai      the LLM step against OPENAI_BASE_URL / OPENAI_API_KEY
 *   add --json for one JSON line of figures
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { evaluateLabels, formatEvalReport, loadEvalPairs } from '../src/labels/evaluation.js';
import { SessionTasks } from '../src/llm/openTasks.js';
import { CachingEmbedder } from '../src/models/embedder.js';
import { HeuristicNli } from '../src/models/heuristicNli.js';
import { UseLiteEmbedder } from '../src/models/useEmbedder.js';
import { packageRoot } from '../src/packageRoot.js';
import { loadSettings } from '../src/settings.js';
import { startOpenAiServer, type OpenAiServer } from '../testkit/openaiServer.js';
import { sharedData } from '../testkit/sharedData.js';
import { Store } from '../src/store/store.js';

const { values } = parseArgs({ options: { llm: { type: 'string', default: 'offline' }, json: { type: 'boolean', default: false } } });
if (!['offline', 'scripted', 'openai'].includes(values.llm)) {
  process.stderr.write(`evaluate-labels: --llm is offline, scripted or openai, not "${values.llm}"\n`);
  process.exit(2);
}

const root = packageRoot();
const pairs = loadEvalPairs(join(root, 'data/eval'), join(sharedData, 'versions-sample'));
let server: OpenAiServer | undefined;
let env: NodeJS.ProcessEnv = process.env;
if (values.llm === 'scripted') {
  let replies = 0;
  // The server's own stand-in verdict (changed when the prompt reports differing facts, else same), junk every third time.
  server = await startOpenAiServer({ script: (prompt) => (prompt.includes('Old sentence:') && ++replies % 3 === 0 ? 'I would say these sentences are mostly the same.' : undefined) });
  env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'scripted' };
}
// The LLM step's replies are cached in a store of their own, in memory: every run asks afresh.
const store = Store.open(':memory:');
const judge = values.llm === 'offline' ? undefined : new SessionTasks(store, loadSettings({ flags: { llm: 'openai' }, env }), env).label();
try {
  const report = await evaluateLabels(pairs, { embedder: new CachingEmbedder(new UseLiteEmbedder()), nli: new HeuristicNli(), ...(judge ? { judge } : {}) });
  const usage = judge?.takeUsage();
  if (values.json) {
    const { outcomes, ...figures } = report;
    process.stdout.write(`${JSON.stringify({ llm: values.llm, ...figures, wrong: outcomes.filter((o) => o.expected !== o.predicted).map((o) => o.id), ...(usage ? { llm_usage: usage } : {}) })}\n`);
  } else {
    process.stdout.write(`sentence labels on ${report.pairs} evaluation pairs, LLM step: ${values.llm}\n${formatEvalReport(report)}`);
    if (usage) process.stdout.write(`LLM requests ${usage.requests}, failures ${usage.failures}, cache hits ${usage.cacheHits}\n`);
  }
} finally {
  store.close();
  await server?.stop();
}
