/**
 * A tiny BERT-shaped model directory in the layout transformers.js loads (config.json,
 * tokenizer.json, tokenizer_config.json, onnx/model.onnx), with random weights written by
 * Debian's python3-onnx: it proves the wiring, not the quality.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const WORDS = 'the a port city of in is has was by mayor population cargo million tonnes 2023 2024 council members harbour old new bridge opened railway line'.split(' ');
const HIDDEN = 16;

export function writeTinyModel(dir: string, kind: 'feature' | 'classifier'): string {
  const vocab = Object.fromEntries([...SPECIAL, ...WORDS, '.', ','].map((token, id) => [token, id]));
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  const config: Record<string, unknown> = {
    model_type: 'bert',
    vocab_size: Object.keys(vocab).length,
    hidden_size: HIDDEN,
    max_position_embeddings: 64,
    pad_token_id: 0,
    architectures: [kind === 'feature' ? 'BertModel' : 'BertForSequenceClassification'],
  };
  if (kind === 'classifier') {
    // Deliberately not in the usual order: the backend must read the classes from id2label.
    config.id2label = { 0: 'CONTRADICTION', 1: 'NEUTRAL', 2: 'ENTAILMENT' };
    config.label2id = { CONTRADICTION: 0, NEUTRAL: 1, ENTAILMENT: 2 };
  }
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      model_max_length: 64,
      do_lower_case: true,
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      mask_token: '[MASK]',
    }),
  );
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  const script = join(dirname(fileURLToPath(import.meta.url)), 'tinyModel.py');
  // Debian's interpreter: python3-onnx installs there, whatever python3 comes first on the PATH.
  execFileSync('/usr/bin/python3', [script, join(dir, 'onnx', 'model.onnx'), kind, String(Object.keys(vocab).length), String(HIDDEN), '3']);
  return dir;
}

function tokenizerJson(vocab: Record<string, number>): unknown {
  const special = (content: string) => ({ id: vocab[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}
