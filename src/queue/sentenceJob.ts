/**
 * The snapshot's sentence cut as a job kind (docs/ARCHITECTURE.md §7.1): one article's wikitext in,
 * its sentences out, run on a batch thread so that a page the parser chokes on (a heap's worth of
 * garbage for a megabyte of abbreviations, minutes for an unclosed comment) costs that thread, not
 * the command: the article is skipped with the reason, the thread replaced, and the process keeps
 * hearing its signals. The job is pure, so where it runs changes nothing of its result.
 */
import { z } from 'zod';
import type { ArticleSentence } from '../model/labels.js';
import { articleSentences } from '../text/articleText.js';
import type { JobKind } from './batchRunner.js';

const ArticleData = z.object({ title: z.string(), wikitext: z.string() });

const SentencesOutput = z.array(z.object({ index: z.number().int(), paragraph: z.number().int(), text: z.string() }));

export const articleSentencesJob: JobKind<z.infer<typeof ArticleData>, ArticleSentence[]> = {
  name: 'article-sentences',
  data: ArticleData,
  output: SentencesOutput,
  compute: async (article) => articleSentences(article.wikitext),
  describe: (article) => `the article "${article.title}"`,
};
