import { weeklyCollection } from './schema/001-weekly-collection.js';
import { timelinesAndQueries } from './schema/002-timelines-queries.js';
import { llmQuestions } from './schema/003-llm-questions.js';
import { snapshotsAndLabels } from './schema/004-snapshots-labels.js';
import { growoverItems } from './schema/005-growover-items.js';
import { stageOrderAndFailures } from './schema/006-stage-order-failures.js';
import { revisionsByPage } from './schema/007-revisions-by-page.js';
import { labelEvidence } from './schema/010-label-evidence.js';
import { recentChangesListing } from './schema/011-recent-changes-listing.js';
import { embeddingCache } from './schema/012-embedding-cache.js';
import { audits } from './schema/013-audits.js';
import { pageCoverage } from './schema/014-page-coverage.js';
import { auditWithdrawalsAndSkips } from './schema/015-audit-withdrawals-skips.js';
import { entityFacts } from './schema/020-entity-facts.js';
import { unparsedAndEntityLabels } from './schema/021-unparsed-and-entity-labels.js';
import { datedEntityLabels } from './schema/022-dated-entity-labels.js';
import { wikiArticleBases } from './schema/023-wiki-article-bases.js';
import { failureCodes } from './schema/024-failure-codes.js';
import { parseVersion } from './schema/025-parse-version.js';

import type { Migration } from './schema/migration.js';

export type { Migration } from './schema/migration.js';

export const migrations: Migration[] = [weeklyCollection, timelinesAndQueries, llmQuestions, snapshotsAndLabels, growoverItems, stageOrderAndFailures, revisionsByPage, labelEvidence, recentChangesListing, embeddingCache, audits, pageCoverage, auditWithdrawalsAndSkips, entityFacts, unparsedAndEntityLabels, datedEntityLabels, wikiArticleBases, failureCodes, parseVersion].sort((a, b) => a.version - b.version);
