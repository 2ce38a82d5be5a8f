import { withUsage } from '../../src/llm/usage.js';
import type { Stage } from '../../src/runs/stageRunner.js';
import { derivedRandom } from '../../src/random.js';
import { DEFAULT_DOMAIN_CAP } from '../../src/settings.js';
import type { DomainResult } from '../../src/model/questions.js';
import type { WeeklyInput } from './input.js';
import { articleOf, batches, LLM_BATCH, tasksFor } from './llmWork.js';

/**
 * classify: a domain for every generated question (by the tasks' provider; a failed call falls back to
 * Others with the reason), then a cap per domain over the questions that passed the checks, drawn
 * by seeded sampling without replacement. Those left out get kept = 0 with the reason.
 */
export const classifyStage: Stage<WeeklyInput> = {
  name: 'classify',
  after: ['check'],
  async run(input, context) {
    const tasks = tasksFor(input);
    const store = context.store.questions(input.wiki);
    const questions = store.questions(input.window);
    const domains: DomainResult[] = [];
    await withUsage(context, tasks, input.prices ?? {}, async () => {
      for (const batch of batches(questions, LLM_BATCH)) {
        const results = await Promise.all(
          batch.map(async (question): Promise<DomainResult> => {
            const result = await tasks.classifyDomain(articleOf(question.unit), question.text);
            return {
              queryId: question.id,
              domain: result.ok ? result.value.domain : 'Others',
              provider: tasks.provider,
              model: tasks.model,
              prompt: result.prompt,
              reason: result.ok ? null : `classification failed, Others by default: ${result.reason}`,
            };
          }),
        );
        domains.push(...results);
        context.reporter.progress(domains.length);
      }
    });
    const cap = input.domainCap ?? DEFAULT_DOMAIN_CAP;
    const capped = capPerDomain(store.passedIds(input.window), domains, cap, `${input.seed}`, input.window.start);
    const kept = store.saveDomains(input.window, domains, capped);
    const counts: Record<string, number> = { classified: domains.length, capped: capped.size, kept };
    for (const { domain } of domains) counts[`domain:${domain}`] = (counts[`domain:${domain}`] ?? 0) + 1;
    return counts;
  },
};

/** The passed questions each domain's cap leaves out, with the reason; the same inputs and seed leave out the same ones. */
export function capPerDomain(passedIds: readonly string[], domains: readonly DomainResult[], cap: number, seed: string, windowStart: string): Map<string, string> {
  const domainOf = new Map(domains.map((d) => [d.queryId, d.domain]));
  const byDomain = new Map<string, string[]>();
  for (const id of [...passedIds].sort()) {
    const domain = domainOf.get(id);
    if (domain === undefined) continue;
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), id]);
  }
  const capped = new Map<string, string>();
  for (const [domain, ids] of byDomain) {
    if (ids.length <= cap) continue;
    const chosen = new Set(derivedRandom(seed, `domain-cap:${windowStart}:${domain}`).sample(ids, cap));
    for (const id of ids) if (!chosen.has(id)) capped.set(id, `left out by the cap of ${cap} questions per domain and week`);
  }
  return capped;
}
