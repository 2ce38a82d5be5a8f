/**
 * An error whose message is fit to show a user as the single line the command prints before it
 * exits non-zero. Anything else reaching the top level is a bug and is reported as one.
 */
export class UserError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UserError';
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
