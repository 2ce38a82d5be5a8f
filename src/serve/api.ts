/**
 * The JSON API (docs/ARCHITECTURE.md §14), for scripts and for the annotator's page itself. Every
 * route needs `Authorization: Bearer TOKEN`; an annotator sees only their own items and their own
 * verdicts (the audit stays blind), the admin routes need an admin token. A verdict is given
 * (POST /judgments), taken back (DELETE /judgments/ITEM: an appended withdrawal) or put off
 * (POST /skips). Each item's verdict has a version (AuditStore.judgmentVersion); a write that names
 * the version it was shown is refused with 409 and the current verdict (with the annotator's
 * progress, which the page's counter follows) when another tab or session of the annotator has
 * changed it since, so a stale page replaces nothing unawares. A write without
 * a version replaces whatever stands, as scripts written before versions expect.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { VERDICTS, type Annotator, type AuditInfo, type Judgment, type JudgmentRecord } from '../model/audit.js';
import { readContent } from '../audit/kinds/index.js';
import { auditReport, type AuditReport } from '../audit/report.js';
import type { ServeContext } from './context.js';
import { progressOf, stateOf } from './navigation.js';
import { adminPanel, type AdminView } from './pages.js';
import { bearerToken, sendError } from './security.js';

/** A day: the longest time one item is taken to have held an annotator (a page left open longer is stored at this). */
export const MAX_SECONDS = 86_400;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text every reader of the store and its exports can hold: no NUL, and no half of a UTF-16
 * surrogate pair, which UTF-8 cannot encode (SQLite would store invalid UTF-8 that Python refuses).
 */
const storableText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((text) => !text.includes('\0'), 'contains a NUL character')
    .refine((text) => !LONE_SURROGATE.test(text), 'contains a lone surrogate (half of a UTF-16 pair)');

export const JudgmentBody = z.strictObject({
  item: z.number().int().positive(),
  verdict: z.enum(VERDICTS),
  label: storableText(100).pipe(z.string().min(1)).nullish(),
  answer: storableText(2000).pipe(z.string().min(1)).nullish(),
  note: storableText(2000).nullish(),
  seconds: z
    .number()
    .min(0)
    .transform((seconds) => Math.min(seconds, MAX_SECONDS))
    .nullish(),
  version: z.number().int().min(0).nullish(),
});

const SkipBody = z.strictObject({ item: z.number().int().positive() });

const ItemParams = z.object({ id: z.string().regex(/^\d{1,12}$/, 'item id must be a whole number').transform(Number) });

const wholeNumber = (name: string) => z.string().regex(/^\d{1,12}$/, `${name} must be a whole number`).transform(Number);

const WithdrawQuery = z
  .object({ version: wholeNumber('version').optional(), shown: wholeNumber('shown').optional(), shown_version: wholeNumber('shown_version').optional() })
  .refine((query) => (query.shown === undefined) === (query.shown_version === undefined), { message: 'shown and shown_version go together', path: ['shown_version'] });

/** zod's issues as one line: `field: problem; field: problem`. */
export function issuesLine(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`).join('; ');
}

function ownJudgment(judgment: Judgment | null) {
  return judgment && { verdict: judgment.verdict, label: judgment.label, answer: judgment.answer, note: judgment.note, seconds: judgment.seconds, created_at: judgment.createdAt };
}

function ownWithdrawal(withdrawal: JudgmentRecord | Judgment | null) {
  return withdrawal && { verdict: withdrawal.verdict, created_at: withdrawal.createdAt };
}

/**
 * The annotator's verdict on the item as it stands, with its version: what a refused write shows, to
 * write over knowingly; and their progress, which moved with it.
 */
function standingVerdict(context: ServeContext, itemId: number, annotatorId: number) {
  const assigned = context.assigned(annotatorId);
  const entry = assigned.find((candidate) => candidate.itemId === itemId);
  return {
    version: context.audits.judgmentVersion(itemId, annotatorId),
    judgment: ownJudgment(entry?.latest ?? null),
    withdrawn: ownWithdrawal(entry?.withdrawn ?? null),
    progress: progressOf(assigned),
  };
}

/** A write refused because the verdict changed since the version it names (409), with the verdict standing. */
interface StaleVerdict {
  status: 409;
  /** The item whose verdict moved on: the one written, or the one the page showed (DELETE's `shown`). */
  item: number;
  message: string;
  standing: ReturnType<typeof standingVerdict>;
}

function sendStale(reply: FastifyReply, stale: StaleVerdict): FastifyReply {
  return reply.code(409).send({ error: stale.message, item: stale.item, ...stale.standing });
}

/**
 * The refusal of a write naming a version (`shown`) that the annotator's verdict on the item has
 * moved on from, or null when it names none or the current one; `remedy` says what to send instead.
 * Run inside the write's transaction, so nothing can come between the check and the row.
 */
function staleVerdict(
  context: ServeContext,
  itemId: number,
  annotatorId: number,
  shown: number | null | undefined,
  remedy = (version: number) => `send version ${version} to replace it`,
): StaleVerdict | null {
  if (shown === null || shown === undefined) return null;
  const standing = standingVerdict(context, itemId, annotatorId);
  if (standing.version === shown) return null;
  const now = standing.judgment ? standing.judgment.verdict : standing.withdrawn ? 'withdrawn' : 'unjudged';
  return {
    status: 409,
    item: itemId,
    message: `your verdict on item ${itemId} changed since version ${shown} (in another tab or session): it is now ${now}, version ${standing.version}; ${remedy(standing.version)}`,
    standing,
  };
}

export async function apiRoutes(app: FastifyInstance, context: ServeContext): Promise<void> {
  const annotators = new WeakMap<FastifyRequest, Annotator>();
  const annotatorOf = (request: FastifyRequest) => annotators.get(request) as Annotator;

  app.addHook('onRequest', async (request, reply) => {
    const check = context.checkToken(request.ip, bearerToken(request));
    if (!check.ok) {
      if (check.retryAfter !== undefined) reply.header('retry-after', String(check.retryAfter));
      if (check.status === 401) reply.header('www-authenticate', 'Bearer');
      return sendError(reply, check.status, check.message);
    }
    annotators.set(request, check.annotator);
  });

  app.get('/next', async (request) => {
    const here = context.locate(annotatorOf(request).id, null);
    const current = here?.current ?? null;
    return { total: here?.total ?? 0, judged: here?.judged ?? 0, position: current?.position ?? null, item: current && current.item, version: current?.version ?? null };
  });

  /** The annotator's history: every assigned item in queue position with its state (judged, skipped, to do). */
  app.get('/items', async (request) => {
    const annotatorId = annotatorOf(request).id;
    const titles = context.audits.assignedTitles(annotatorId);
    return {
      items: [...context.assigned(annotatorId)]
        .sort((a, b) => a.position - b.position)
        .map((entry, index) => ({
          id: entry.itemId,
          key: entry.key,
          title: titles.get(entry.itemId) ?? '',
          position: index + 1,
          state: stateOf(entry),
          judged: entry.latest !== null,
          verdict: entry.latest?.verdict ?? null,
          judged_at: entry.latest?.createdAt ?? null,
          withdrawn: ownWithdrawal(entry.withdrawn),
          version: entry.version,
        })),
    };
  });

  app.get('/items/:id', async (request, reply) => {
    const params = ItemParams.safeParse(request.params);
    if (!params.success) return sendError(reply, 400, issuesLine(params.error));
    const here = context.locate(annotatorOf(request).id, params.data.id);
    if (!here?.current) return sendError(reply, 403, `item ${params.data.id} is not assigned to you`);
    const { current } = here;
    return { total: here.total, position: current.position, item: current.item, judgment: ownJudgment(current.latest), withdrawn: ownWithdrawal(current.withdrawn), skipped: current.skipped, version: current.version };
  });

  app.post('/judgments', async (request, reply) => {
    const body = JudgmentBody.safeParse(request.body);
    if (!body.success) return sendError(reply, 400, issuesLine(body.error));
    const annotator = annotatorOf(request);
    const { item: itemId, verdict, label, answer, note, seconds, version } = body.data;
    if ((label || answer) && verdict !== 'wrong') return sendError(reply, 400, 'label and answer correct a wrong item: give them only with verdict "wrong"');
    // The check and the row in one transaction: what was assigned when checked is what is judged.
    const outcome = context.audits.atomically((): { judgment: Judgment; version: number } | { status: 400 | 403; message: string } | StaleVerdict => {
      const item = context.audits.isAssigned(itemId, annotator.id) ? context.audits.item(itemId) : undefined;
      if (!item) return { status: 403, message: `item ${itemId} is not assigned to you` };
      const stale = staleVerdict(context, itemId, annotator.id, version);
      if (stale) return stale;
      const shown = readContent(item.content);
      const choices = shown.kind.choices?.(shown.content) ?? null;
      if (label && !choices) return { status: 400, message: 'label applies to items with a proposed label (sentence labels, verdicts on predictions); give answer instead' };
      if (answer && choices) return { status: 400, message: 'an item with a proposed label takes a label, not an answer' };
      if (label && choices && !choices.labels.includes(label)) return { status: 400, message: `label must be one of ${choices.labels.join(', ')}` };
      // Nothing is chosen for the annotator: a wrong label needs the right one, and it is another label.
      if (choices && verdict === 'wrong' && !label) return { status: 400, message: `a wrong label needs the right one: give label (one of ${choices.labels.filter((other) => other !== choices.proposed).join(', ')})` };
      if (choices && label === choices.proposed) return { status: 400, message: `label ${label} is the proposed one: a wrong label's right label is another` };
      const judgment = context.addJudgment({
        itemId,
        annotatorId: annotator.id,
        verdict,
        label: label ?? null,
        answer: answer ?? null,
        note: note ? note : null,
        seconds: seconds ?? null,
        createdAt: new Date().toISOString(),
      });
      return { judgment, version: context.audits.judgmentVersion(itemId, annotator.id) };
    });
    if ('standing' in outcome) return sendStale(reply, outcome);
    if ('status' in outcome) return sendError(reply, outcome.status, outcome.message);
    return reply.code(201).send({ item: itemId, verdict, judgment: ownJudgment(outcome.judgment), version: outcome.version });
  });

  /**
   * Takes the annotator's verdict on the item back: a withdrawal row is appended and the item is
   * unjudged again. `?version=N` withdraws only the verdict of that version (409 otherwise).
   * `?shown=ITEM&shown_version=N` names the item the page showed unjudged while withdrawing another
   * (its last verdict): judged or withdrawn since, that item's verdict is what the page would have
   * withdrawn, so nothing is and the 409 names that item with its verdict standing.
   */
  app.delete('/judgments/:id', async (request, reply) => {
    const params = ItemParams.safeParse(request.params);
    if (!params.success) return sendError(reply, 400, issuesLine(params.error));
    const query = WithdrawQuery.safeParse(request.query);
    if (!query.success) return sendError(reply, 400, issuesLine(query.error));
    const annotator = annotatorOf(request);
    const itemId = params.data.id;
    const outcome = context.audits.atomically((): { withdrawal: JudgmentRecord; version: number } | { status: 403 | 404; message: string } | StaleVerdict => {
      if (!context.audits.isAssigned(itemId, annotator.id)) return { status: 403, message: `item ${itemId} is not assigned to you` };
      const { version, shown, shown_version: shownVersion } = query.data;
      if (shown !== undefined && !context.audits.isAssigned(shown, annotator.id)) return { status: 403, message: `item ${shown} is not assigned to you` };
      const stale =
        (shown === undefined ? null : staleVerdict(context, shown, annotator.id, shownVersion, (now) => `send shown_version ${now} to withdraw your verdict on item ${itemId} all the same`)) ??
        staleVerdict(context, itemId, annotator.id, version);
      if (stale) return stale;
      const withdrawal = context.withdrawJudgment(itemId, annotator.id);
      if (!withdrawal) return { status: 404, message: `item ${itemId} has no verdict of yours to withdraw` };
      return { withdrawal, version: context.audits.judgmentVersion(itemId, annotator.id) };
    });
    if ('standing' in outcome) return sendStale(reply, outcome);
    if ('status' in outcome) return sendError(reply, outcome.status, outcome.message);
    return { item: itemId, judged: false, withdrawn: ownWithdrawal(outcome.withdrawal), version: outcome.version };
  });

  /** Puts an unjudged item off: it comes back after every item still to do. A judged one is refused (409) with its verdict. */
  app.post('/skips', async (request, reply) => {
    const body = SkipBody.safeParse(request.body);
    if (!body.success) return sendError(reply, 400, issuesLine(body.error));
    const annotator = annotatorOf(request);
    const itemId = body.data.item;
    if (!context.audits.isAssigned(itemId, annotator.id)) return sendError(reply, 403, `item ${itemId} is not assigned to you`);
    if (!context.skip(itemId, annotator.id)) {
      const standing = standingVerdict(context, itemId, annotator.id);
      return sendStale(reply, { status: 409, item: itemId, message: `item ${itemId} is judged: withdraw the verdict (DELETE /api/judgments/${itemId}) before skipping it`, standing });
    }
    return reply.code(201).send({ item: itemId, skipped: true });
  });

  /** The audit an admin token governs; any other token gets a 403. */
  const adminAudit = (request: FastifyRequest, reply: FastifyReply): AuditInfo | undefined => {
    const annotator = annotatorOf(request);
    const audit = annotator.role === 'admin' ? context.audits.auditById(annotator.auditId) : undefined;
    if (!audit) sendError(reply, 403, 'this token is not an admin token of the audit');
    return audit;
  };

  app.get('/admin/progress', async (request, reply) => {
    const audit = adminAudit(request, reply);
    return audit && { audit: audit.name, progress: context.audits.progress(audit.id) };
  });

  app.get('/admin/report', async (request, reply) => {
    const audit = adminAudit(request, reply);
    return audit && reportOf(context, audit);
  });

  app.get('/admin/panel', async (request, reply) => {
    const audit = adminAudit(request, reply);
    return audit && reply.type('text/html; charset=utf-8').send(adminPanel(adminView(context, audit)).value);
  });
}

export function reportOf(context: ServeContext, audit: AuditInfo): AuditReport {
  return auditReport(context.audits.reportInput(audit));
}

/** The maintainer's page's content: progress per annotator and the live report. */
export function adminView(context: ServeContext, audit: AuditInfo): AdminView {
  return { audit: audit.name, progress: context.audits.progress(audit.id), report: reportOf(context, audit) };
}
