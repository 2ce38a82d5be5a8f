/**
 * The error tree and the one list of stable error codes. A script or a test tells which problem
 * ended a command by its code, never by the English of the line, so each code names one kind of
 * problem (the same problem met in two places shares it) and the list here is where they are all
 * written down; README.md's table of error codes repeats it, and a unit test keeps the two equal.
 */
export const errorCodes = {
  E_USAGE: 'a wrong flag or argument, found when the command line is read: an unknown flag, a missing value, or a value its option refuses as it reads it (not a whole number, not a real `YYYY-MM-DD` date) (exit code 2)',
  E_INTERNAL: 'a bug in wikidelta, never bad input (exit code 70; the stack with `WIKIDELTA_DEBUG=1`)',
  E_CONFIG_UNKNOWN_SETTING: 'the config file names a setting wikidelta does not have',
  E_CONFIG_INVALID: 'the config file is not a JSON object',
  E_SETTING_INVALID: 'a setting (from a flag, the environment or the config file) has a value it cannot take; the line says where it came from',
  E_FLAG_INVALID: "a flag's value the command refuses once the line is read: out of range or malformed (a port, a count, a URL, a stage name, a model option)",
  E_FLAG_MISSING: 'the command needs a flag or argument that was not given (a source, `--as-of` with `--api`, annotators, files)',
  E_FLAGS_CONFLICT: 'flags that cannot go together (`--api` with `--dump`, `--query` with `--title`, `--redo` of a stage not run)',
  E_DATE_INVALID: 'a date, month or timestamp that is not a real one in the expected form',
  E_DATE_RANGE_INVALID: 'a date range that runs backwards, is empty or is longer than the command allows',
  E_FILE_UNREADABLE: 'a file or directory the command was given is missing, of the wrong kind or cannot be read',
  E_OUTPUT_UNWRITABLE: 'an output file or directory cannot be written (not a directory, no permission, a directory in the way)',
  E_OUTPUT_DIR_FOREIGN: 'the output directory holds files the command did not write (not a release, evaluation, board or report of its own): give a new directory',
  E_STORE_MISSING: 'no database at the path given to a command that only reads it',
  E_STORE_BUSY: 'another process has held the database locked for longer than the busy timeout',
  E_STORE_READ_ONLY: 'the database (or its directory, which SQLite needs in WAL mode) cannot be written here',
  E_STORE_DISK_FULL: "the disk under the database is full",
  E_STORE_UNOPENABLE: 'the database or its directory cannot be opened or created',
  E_STORE_INVALID: 'the file is not a usable wikidelta store (not SQLite, corrupt, or without the current schema)',
  E_STORE_TOO_NEW: 'the store was written by a newer wikidelta: upgrade',
  E_STORE_LOCKED: 'another run holds the lock of the store: wait for it, or remove the lock of a run that is gone',
  E_LOCK_UNWRITABLE: 'the lock beside the store cannot be created or replaced',
  E_PREREQUISITE_MISSING: 'the store does not hold yet what the command works from (a run, labels, items, an earlier stage): run the step the line names first',
  E_SNAPSHOT_EXISTS: 'a finished snapshot of that name exists from another source or date: choose another `--name` (one left unfinished, on a broken dump say, is taken again from the source given)',
  E_SNAPSHOT_NOT_FOUND: 'no snapshot of that name in the store',
  E_PAGE_NOT_FOUND: 'no page of that title in the store',
  E_TITLE_AMBIGUOUS: 'a former title, or an English label, that several pages of the wiki have had: the line names them; give one by its title (an entity by its id)',
  E_QUERY_NOT_FOUND: 'no query of that id in the store (one the checks dropped is still answered, for a look at why)',
  E_WINDOW_CONFLICT: "the store holds a week of another length or another wiki that starts on the same day, whose query ids (DailyQA's: the first day and the page id) this one's would take over: use another store",
  E_WIKI_AMBIGUOUS: 'the store holds several wikis for that range, or pages of several wikis with that title: name one with `--wiki`',
  E_DUMP_EMPTY: 'the dump holds nothing',
  E_DUMP_TRUNCATED: 'the dump ends before its XML does (inside a page, or without the closing `</mediawiki>`)',
  E_DUMP_NOT_MEDIAWIKI: 'the input is not a MediaWiki XML export (HTML, binary data, another XML document)',
  E_DUMP_MALFORMED: "the dump's XML is broken, or a page or revision lacks a field or holds an invalid one",
  E_DUMP_CORRUPT: "the dump's compressed data is not valid or is cut short",
  E_DUMP_STDIN_UNUSABLE: 'a dump on standard input that cannot be read: a terminal, a 7z archive, or a second pass',
  E_DUMP_CHANGED: 'the dump file changed while a queued run was reading it in parts',
  E_DECOMPRESSOR_MISSING: "the program that decompresses the dump's format (`bzip2`, `7z`, `xz`) is not installed or does not start",
  E_LABELS_FILE_INVALID: 'the labels file is not a Wikidata JSON dump',
  E_WIKITEXT_TOO_DEEP: "a page's templates are nested deeper than the parser reads",
  E_WIKI_UNREACHABLE: 'the wiki failed past the retries (down, 5xx, timeouts), or refused the request (a redirect to another host, a reply over the size cap, a Retry-After too long to wait)',
  E_WIKI_BAD_REPLY: 'the wiki sent a reply that is not a valid API answer (malformed, or a continuation that would never end)',
  E_LLM_UNREACHABLE: 'the LLM server failed past the retries, or refused the request',
  E_QUEUE_UNREACHABLE: 'the queue (Redis) does not answer, or refuses its commands (a password or database it does not take, full at its `maxmemory`)',
  E_THREAD_TOO_SLOW: 'a batch thread took longer than its deadline (`parseDeadlineSeconds`) on a batch: the line names it; the thread is stopped and replaced',
  E_THREAD_OUT_OF_MEMORY: 'a batch thread ran out of its heap (`threadHeapMb`) on a batch: the line names the batch (a parse batch by its pages); raise the setting',
  E_QUEUE_JOBS_FAILED: "the queue's jobs of a stage failed for good (past their retries, or at once on broken input); the line counts the jobs' own codes (`--json`: `failed_jobs`)",
  E_QUEUE_JOBS_LOST: "the queue lost a stage's jobs (Redis restarted without its data, or was emptied)",
  E_QUEUE_OWNER_GONE: "a worker's job whose command (the store's owner that queued it) was killed or stopped: the batch is not computed and fails for good; the command started again queues the work left",
  E_QUEUE_JOB_INVALID: "a job on the queue that this worker cannot read (data that is not JSON or not of its kind, a kind it does not run: written by hand, damaged in Redis, or queued by another wikidelta version): it fails for good at once",
  E_QUEUE_RESULT_INVALID: "a worker returned a batch's result that this wikidelta cannot read, or one that does not answer its batch (a worker of another version): the stage fails; run workers of the owner's version and the command again",
  E_PROMPT_INVALID: 'a prompt template is not in the prompt file format',
  E_PREDICTIONS_INVALID: 'a predictions file, or a file of a submissions directory, is not in a format wikidelta reads, or holds none',
  E_PREDICTION_DUPLICATE: 'an id is predicted twice (in one file, or in two files of one system)',
  E_PREDICTION_TOO_LARGE: 'a prediction, or a line of a predictions file, is longer than the cap',
  E_SYSTEM_META_INVALID: 'the `NAME.meta.json` beside a predictions file is not a JSON object whose `cutoff`, when given, is a `YYYY-MM-DD` date (other fields are the submitter\'s, kept out of scoring)',
  E_NOTHING_TO_SCORE: 'the evaluation has no gold answer to score the predictions against',
  E_ANSWERS_UNKNOWN: 'the store does not know the answers asked for on that date, or on any day of a range: outside the histories it holds, or the published files it imported (the line says where they end, and what extends them)',
  E_DAILYQA_FILE_INVALID: 'a DailyQA per-day file has another name than `qa_YYMMDD.jsonl(.gz)`, or a line that is not a DailyQA item',
  E_DAILYQA_CONFLICT: 'two DailyQA files give one query two answers for the same day',
  E_TITLE_LIST_INVALID: 'the title list is not one title per line',
  E_LABEL_PAIRS_INVALID: "the label evaluation's pairs do not match the versions sample (a line that is not JSON, a missing sentence)",
  E_RELEASE_NOT_FOUND: 'the directory is not a release: it has no manifest',
  E_RELEASE_INVALID: "a release's manifest or files are not what the manifest says (not JSON, missing, a checksum that differs)",
  E_RELEASE_TOO_NEW: 'the release was written by a newer wikidelta: upgrade',
  E_RELEASE_MISMATCH: 'two releases of different kinds cannot be compared',
  E_AUDIT_EXISTS: 'an audit of that name exists already: choose another `--name`',
  E_AUDIT_NOT_FOUND: 'no audit of that name in the store',
  E_ANNOTATOR_DUPLICATE: 'an annotator name given twice, or one the audit has already',
  E_ANNOTATOR_NOT_FOUND: 'the audit has no annotator of that name',
  E_RATERS_EXCEED_ANNOTATORS: 'more raters per item than the audit has annotators',
  E_NOTHING_TO_AUDIT: 'the source of an audit holds no item to sample, or every one is in the audit already',
  E_EVALUATION_INVALID: 'the directory given to an audit is not one that `evaluate weekly --judge … --out` or `evaluate growover --judge … --out` wrote',
  E_MODEL_INVALID: 'a model given does not fit what wikidelta needs of it (an NLI model without an entailment class)',
  E_RUNTIME_UNAVAILABLE: 'ONNX Runtime does not load on this machine: run with `--embedding-runtime wasm`',
  E_LISTEN_FAILED: 'the server cannot listen: the port is in use, or the host is no local address',
  E_RUN_INTERRUPTED: "recorded in the store (`status`), never a command's line: the run's process was stopped by a signal or died before the stage ended; the command started again continues",
  E_STATUS_UNHEALTHY: '`status --check`: the newest run failed, is too old, or there is none',
} as const;

/** Every stable code: the ones above. */
export type ErrorCode = keyof typeof errorCodes;

/** The codes no `UserError` takes: the two the command line gives itself (usage errors and bugs), and the one the run records give. */
const notUserErrorCodes = ['E_USAGE', 'E_INTERNAL', 'E_RUN_INTERRUPTED'] as const;

/** The codes a `UserError` takes. */
export type UserErrorCode = Exclude<ErrorCode, (typeof notUserErrorCodes)[number]>;

/**
 * An error whose message is fit to show a user as the single line the command prints before it
 * exits non-zero, with the stable code of its kind of problem. Anything else reaching the top level
 * is a bug and is reported as one.
 */
export class UserError extends Error {
  /** Fields a script reads from the `--json` error line besides the code and the message (snake_case keys). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    readonly code: UserErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options);
    this.name = 'UserError';
    this.details = options?.details;
  }
}

/** Bad input data (broken XML, malformed wikitext the parser cannot survive, junk replies). */
export class InputError extends UserError {
  override name = 'InputError';
}

/** A remote service (wiki, LLM server) that failed past the retries. */
export class RemoteError extends UserError {
  override name = 'RemoteError';
}

export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim();
}

/** The stable code of any error: a UserError's own, `E_INTERNAL` for anything else (a bug). */
export function codeOf(error: unknown): ErrorCode {
  return error instanceof UserError ? error.code : 'E_INTERNAL';
}

/**
 * An error as text that crosses a boundary where only text goes (a BullMQ job's failure reason, a
 * message from a batch thread): `CODE: one line`, the form of the command's own error line, so the
 * code survives the trip and `fromCarried` gives it back.
 */
export function carried(error: unknown): string {
  return `${codeOf(error)}: ${oneLine(error)}`;
}

const CarriedText = /^(E_[A-Z0-9_]+): ([\s\S]*)$/;

/**
 * The code and message of a text `carried` wrote. Text without a known code (BullMQ's own reasons,
 * such as a job that stalled past its limit, or a reason from a worker of an older wikidelta) is
 * `E_INTERNAL`, with the whole text as its message.
 */
export function parseCarried(text: string): { code: ErrorCode; message: string } {
  const match = CarriedText.exec(text);
  const code = match?.[1];
  if (match && code !== undefined && code in errorCodes) return { code: code as ErrorCode, message: match[2] ?? '' };
  return { code: 'E_INTERNAL', message: text };
}

/** The error a carried text stands for: a UserError with its code, or a plain Error for a bug (so it is still reported as one). */
export function fromCarried(text: string): Error {
  const { code, message } = parseCarried(text);
  return isUserErrorCode(code) ? new UserError(code, message) : new Error(message);
}

function isUserErrorCode(code: ErrorCode): code is UserErrorCode {
  return !(notUserErrorCodes as readonly string[]).includes(code);
}
