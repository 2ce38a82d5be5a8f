/**
 * The JSON API (docs/ARCHITECTURE.md §14), for scripts and for the annotator's page itself. Every
 * route needs `Authorization: Bearer TOKEN`; an annotator sees only their own items and their own
 * verdicts (the audit stays blind), the admin routes need an admin token.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { VERDICTS, type Annotator, type AuditInfo, type Judgment } from '../audit/model.js';
import { auditReport, type AuditReport } from '../audit/report.js';
import type { ServeContext } from './context.js';
import { adminPanel, type AdminView } from './pages.js';
import { bearerToken, sendError } from './security.js';

const LABELS = ['unchanged', 'changed', 'new', 'undecided'] as const;

const optionalText = (max: number) => z.string().trim().min(1).max(max).nullish();

export const JudgmentBody = z.strictObject({
  item: z.number().int().positive(),
  verdict: z.enum(VERDICTS),
  label: optionalText(100),
  answer: optionalText(2000),
  note: z.string().trim().max(2000).nullish(),
  seconds: z.number().min(0).max(86_400).nullish(),
});

const ItemParams = z.object({ id: z.string().regex(/^\d{1,12}$/, 'item id must be a whole number').transform(Number) });

/** zod's issues as one line: `field: problem; field: problem`. */
export function issuesLine(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`).join('; ');
}

function ownJudgment(judgment: Judgment | null) {
  return judgment && { verdict: judgment.verdict, label: judgment.label, answer: judgment.answer, note: judgment.note, seconds: judgment.seconds, created_at: judgment.createdAt };
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
    return { total: here?.total ?? 0, judged: here?.judged ?? 0, position: current?.position ?? null, item: current && current.item };
  });

  app.get('/items', async (request) => ({
    items: context
      .assigned(annotatorOf(request).id)
      .map((entry, index) => ({ id: entry.itemId, key: entry.key, position: index + 1, judged: entry.latest !== null, verdict: entry.latest?.verdict ?? null })),
  }));

  app.get('/items/:id', async (request, reply) => {
    const params = ItemParams.safeParse(request.params);
    if (!params.success) return sendError(reply, 400, issuesLine(params.error));
    const here = context.locate(annotatorOf(request).id, params.data.id);
    if (!here?.current) return sendError(reply, 403, `item ${params.data.id} is not assigned to you`);
    return { total: here.total, position: here.current.position, item: here.current.item, judgment: ownJudgment(here.current.latest) };
  });

  app.post('/judgments', async (request, reply) => {
    const body = JudgmentBody.safeParse(request.body);
    if (!body.success) return sendError(reply, 400, issuesLine(body.error));
    const annotator = annotatorOf(request);
    const { item: itemId, verdict, label, answer, note, seconds } = body.data;
    if ((label || answer) && verdict !== 'wrong') return sendError(reply, 400, 'label and answer correct a wrong item: give them only with verdict "wrong"');
    // The check and the row in one transaction: what was assigned when checked is what is judged.
    const outcome = context.db.transaction((): { judgment: Judgment } | { status: 400 | 403; message: string } => {
      const item = context.store.isAssigned(itemId, annotator.id) ? context.store.item(itemId) : undefined;
      if (!item) return { status: 403, message: `item ${itemId} is not assigned to you` };
      if (label && item.content.kind !== 'label') return { status: 400, message: 'label applies to sentence-label items; give answer instead' };
      if (answer && item.content.kind === 'label') return { status: 400, message: 'a sentence-label item takes a label, not an answer' };
      if (label && !(LABELS as readonly string[]).includes(label)) return { status: 400, message: `label must be one of ${LABELS.join(', ')}` };
      return {
        judgment: context.addJudgment({
          itemId,
          annotatorId: annotator.id,
          verdict,
          label: label ?? null,
          answer: answer ?? null,
          note: note ? note : null,
          seconds: seconds ?? null,
          createdAt: new Date().toISOString(),
        }),
      };
    }).immediate();
    if ('status' in outcome) return sendError(reply, outcome.status, outcome.message);
    return reply.code(201).send({ item: itemId, verdict, judgment: ownJudgment(outcome.judgment) });
  });

  /** The audit an admin token governs; any other token gets a 403. */
  const adminAudit = (request: FastifyRequest, reply: FastifyReply): AuditInfo | undefined => {
    const annotator = annotatorOf(request);
    const audit = annotator.role === 'admin' ? context.store.auditById(annotator.auditId) : undefined;
    if (!audit) sendError(reply, 403, 'this token is not an admin token of the audit');
    return audit;
  };

  app.get('/admin/progress', async (request, reply) => {
    const audit = adminAudit(request, reply);
    return audit && { audit: audit.name, progress: context.store.progress(audit.id) };
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
  return auditReport({ audit, items: context.store.items(audit.id), annotators: context.store.annotators(audit.id), judgments: context.store.latestJudgments(audit.id) });
}

/** The maintainer's page's content: progress per annotator and the live report. */
export function adminView(context: ServeContext, audit: AuditInfo): AdminView {
  return { audit: audit.name, progress: context.store.progress(audit.id), report: reportOf(context, audit) };
}
