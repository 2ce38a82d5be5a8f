/**
 * The monthly generation job (docs/ARCHITECTURE.md §13): one article carried as its sentences (with
 * its labels and the old wording when it changed) and the vectors of those sentences the owner's
 * store already holds (the LLM to ask travels with every job, src/queue/llmChoice.ts); its GrowOVER items and rejects back, with what the LLM calls
 * spent, for the owner to write under the article's done marker and to count in the run's usage.
 */
import { z } from 'zod';
import { generateFromChange, generateInitial, type Generated } from '../growover/generator.js';
import { UsageSchema } from '../model/llmUsage.js';
import { CachingEmbedder, type VectorStore } from '../models/embedder.js';
import { keysUnanswered, type JobKind } from './batchRunner.js';

const GenerateArticleData = z.object({
  seed: z.number().int(),
  article: z.object({ snapshot: z.string(), month: z.string(), pageId: z.number().int(), title: z.string() }),
  sentences: z.array(z.object({ index: z.number().int(), paragraph: z.number().int(), text: z.string() })),
  /** Vectors by text hash (base64 of the float32 bytes), as the owner's embedding cache holds them. */
  vectors: z.record(z.string(), z.string()),
  /** An article with earlier items: its labels against the old snapshot and the old sentences. */
  change: z
    .object({
      labels: z.array(z.object({ index: z.number().int(), label: z.enum(['unchanged', 'changed', 'new', 'undecided']), oldIndices: z.array(z.number().int()) })),
      oldSentences: z.array(z.string()),
    })
    .nullable(),
});
export type GenerateArticle = z.infer<typeof GenerateArticleData>;

const ProvenanceSchema = z.object({ prompt: z.string(), promptVersion: z.string(), provider: z.string(), model: z.string(), seed: z.string() });
const TurnTypeSchema = z.enum(['initial', 'unchanged', 'new', 'changed']);

const GeneratedSchema = z.object({
  qa: z.array(
    z.object({
      id: z.string(),
      type: z.enum(['initial', 'new', 'changed']),
      question: z.string(),
      answer: z.string(),
      oldAnswer: z.string().nullable(),
      oldText: z.string().nullable(),
      evidence: z.array(z.number().int()),
      provenance: ProvenanceSchema,
    }),
  ),
  dialogues: z.array(
    z.object({
      id: z.string(),
      type: z.enum(['initial', 'new']),
      paragraph: z.number().int(),
      provenance: ProvenanceSchema,
      turns: z.array(z.object({ user: z.string(), expert: z.string(), type: TurnTypeSchema, evidence: z.number().int() })),
    }),
  ),
  rejects: z.array(z.object({ id: z.string(), kind: z.enum(['qa', 'dialogue']), type: z.string(), reason: z.string(), reply: z.unknown(), provenance: ProvenanceSchema })),
}) satisfies z.ZodType<Generated>;

const GeneratedArticle = z.object({ pageId: z.number().int(), generated: GeneratedSchema, usage: UsageSchema });
export type GeneratedArticle = z.infer<typeof GeneratedArticle>;

export function encodeVector(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
}

function decodeVector(encoded: string): Float32Array {
  const bytes = Buffer.from(encoded, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** The shipped vectors as a read-only vector store: what is found there is not embedded again. */
function shippedVectors(vectors: Record<string, string>): VectorStore {
  return {
    load: (_embedder, hashes) => new Map(hashes.flatMap((hash) => (vectors[hash] === undefined ? [] : [[hash, decodeVector(vectors[hash])] as const]))),
    save: () => undefined,
  };
}

export const generateArticleJob: JobKind<GenerateArticle, GeneratedArticle> = {
  name: 'generate-article',
  data: GenerateArticleData,
  output: GeneratedArticle,
  async compute(job, env) {
    if (!env.growoverTasks) throw new Error('this process gives generation jobs no LLM tasks');
    const tasks = env.growoverTasks();
    const { embedder } = await env.models();
    const generation = { tasks, embedder: new CachingEmbedder(embedder, shippedVectors(job.vectors)), seed: job.seed, article: job.article, sentences: job.sentences };
    // Taken at the end: on tasks shared by jobs under way at once, each take may hold a little of another's, the sum all of it.
    const generated = job.change === null ? await generateInitial(generation) : await generateFromChange(generation, job.change.labels, job.change.oldSentences);
    return { pageId: job.article.pageId, generated, usage: tasks.takeUsage() };
  },
  unanswered: (job, article) => keysUnanswered([job.article.pageId], [article.pageId], (pageId) => `page ${pageId}`),
};
