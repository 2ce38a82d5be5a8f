/** One task of a model behind an OpenAI-compatible server: a versioned prompt, a reply schema, the result naming the prompt. */
import type { z } from 'zod';
import type { OpenAiClient } from './openaiClient.js';
import type { ReplySchema } from './outputModes.js';
import { loadPrompt } from './prompts.js';
import type { TaskResult } from './tasks.js';

/**
 * Calls a versioned prompt (prompts/NAME.txt) with its variables, the reply checked against `schema`.
 *
 * @returns the reply or the item's failure, naming the prompt and version either way
 * @throws InputError for a prompt file that cannot be read; RemoteError as `OpenAiClient.call` does
 * @example runPrompt(client, 'prediction-judge', JudgeReply, { question, values, reply })
 */
export async function runPrompt<S extends ReplySchema>(client: OpenAiClient, name: string, schema: S, variables: Record<string, string>): Promise<TaskResult<z.infer<S>>> {
  const prompt = loadPrompt(name);
  const outcome = await client.call({ prompt, variables, schema });
  const ref = { name: prompt.name, version: prompt.version };
  return outcome.ok ? { ok: true, value: outcome.value, prompt: ref } : { ok: false, reason: outcome.reason, prompt: ref };
}
