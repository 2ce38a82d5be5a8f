/**
 * Where `@huggingface/transformers` finds models: a local model directory (a folder per model id
 * holding config.json, tokenizer.json and onnx/model.onnx), never the network, unless a cache dir
 * is configured for a machine that reaches the hub, in which case models download there on first use.
 */
import { env } from '@huggingface/transformers';

export interface ModelLocation {
  /** A directory that holds the model's files, or a hub model id when `cacheDir` allows downloads. */
  model: string;
  /** Set only where the hub is reachable: downloads go there, and later runs read them from there. */
  cacheDir?: string;
}

/** Points transformers.js at the model and returns the id to load it by. */
export function configureTransformers(location: ModelLocation): string {
  if (location.cacheDir) {
    env.allowRemoteModels = true;
    env.cacheDir = location.cacheDir;
    return location.model;
  }
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  // A directory is loaded as localModelPath/<id>: its parent is the root and its name the id.
  const parts = location.model.replace(/\/+$/, '').split('/');
  const id = parts.pop() as string;
  // A directory right under the root ("/model") has the root as its parent, not the working directory.
  env.localModelPath = parts.length === 0 ? './' : `${parts.join('/')}/`;
  return id;
}
