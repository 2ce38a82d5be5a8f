/**
 * The MediaWiki Action API replies (formatversion=2) that wikidelta reads, as zod schemas shared by
 * every source and the wiki search: a reply that does not match is a RemoteError naming what was
 * wrong. Each schema holds only the fields some reader uses, so one schema serves all its requests.
 * A `list=` module's reply always holds its list under `query`, empty when nothing is listed: a
 * reply without it (a proxy's `{}`) is malformed, not an empty listing, or a wiki that answers junk
 * would make an empty week done for good. `prop=` replies may leave `query` out (no page asked).
 */
import { z } from 'zod';

/** A page's or a revision's id: MediaWiki's start at 1, and zod's int() stops at 2^53, past which two ids would be one number. */
const Id = z.number().int().positive();
/** The id of a revision before, 0 when there is none (a first revision's parent, a new page's old revision). */
const IdOrNone = z.number().int().nonnegative();

/** What recent-changes rows and revision entries both say of a revision. */
const revisionMetadataFields = {
  revid: Id,
  timestamp: z.string(),
  sha1: z.string().optional(),
  sha1hidden: z.boolean().optional(),
  comment: z.string().optional(),
  user: z.string().optional(),
  minor: z.boolean().optional(),
};

const RecentChangeSchema = z.object({
  ...revisionMetadataFields,
  pageid: Id,
  old_revid: IdOrNone,
});
export type RecentChange = z.infer<typeof RecentChangeSchema>;

export const RecentChangesReply = z.object({
  query: z.object({ recentchanges: z.array(RecentChangeSchema) }),
});

export const OldestChangeReply = z.object({
  query: z.object({ recentchanges: z.array(z.object({ timestamp: z.string() })) }),
});

/** `prop=info` for titles or page ids. */
export const InfoReply = z.object({
  query: z
    .object({
      pages: z.array(
        z.object({
          pageid: Id.optional(),
          ns: z.number().int().optional(),
          title: z.string(),
          missing: z.boolean().optional(),
          invalid: z.boolean().optional(),
          redirect: z.boolean().optional(),
        }),
      ),
    })
    .optional(),
});
export type InfoReply = z.infer<typeof InfoReply>;

export const AllPagesReply = z.object({
  query: z.object({ allpages: z.array(z.object({ pageid: Id, ns: z.number().int(), title: z.string() })) }),
});

const RevisionEntrySchema = z.object({
  ...revisionMetadataFields,
  parentid: IdOrNone.optional(),
  slots: z
    .object({
      main: z.object({ content: z.string().optional(), contentmodel: z.string().optional(), texthidden: z.boolean().optional() }).optional(),
    })
    .optional(),
});
export type RevisionEntry = z.infer<typeof RevisionEntrySchema>;

/** `prop=revisions`; every request for it asks at least for `ids|timestamp`. */
export const RevisionsReply = z.object({
  query: z
    .object({
      pages: z.array(z.object({ pageid: Id.optional(), revisions: z.array(RevisionEntrySchema).optional() })),
    })
    .optional(),
});
export type RevisionsReply = z.infer<typeof RevisionsReply>;

export const LogEventsReply = z.object({
  query: z.object({
    logevents: z.array(
      z.object({
        ns: z.number().int().optional(),
        title: z.string().optional(),
        action: z.string().optional(),
        logpage: z.number().int().optional(),
        timestamp: z.string(),
        params: z.object({ target_ns: z.number().int().optional(), target_title: z.string().optional() }).optional(),
      }),
    ),
  }),
});
export type LogEvent = NonNullable<z.infer<typeof LogEventsReply>['query']>['logevents'][number];

/** `prop=links` of given pages. */
export const LinksReply = z.object({
  query: z.object({ pages: z.array(z.object({ links: z.array(z.object({ title: z.string() })).optional() })) }).optional(),
});

/** `list=search` with no properties but the title. */
export const SearchReply = z.object({
  query: z.object({ search: z.array(z.object({ title: z.string() })) }),
});
