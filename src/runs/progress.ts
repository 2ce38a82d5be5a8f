import cliProgress from 'cli-progress';
import type { Counts } from '../store/runStore.js';

/**
 * Where a run tells what it is doing: a progress bar for a person at a terminal, one JSON object per
 * line for cron and log collectors. Both write to standard error so standard output stays data.
 */
export interface Reporter {
  event(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  stageStarted(stage: string): void;
  /** Progress inside the current stage; total is unknown (undefined) while a source is still streaming. */
  progress(done: number, total?: number): void;
  stageFinished(stage: string, outcome: StageOutcome & { status: 'done' | 'skipped' | 'failed' }): void;
}

/** How a stage ended; a failed one with its error's line and stable code, as the run records them. */
export interface StageOutcome {
  status: string;
  counts: Counts;
  seconds: number;
  error?: string;
  errorCode?: string;
}

export function createReporter(stream: NodeJS.WriteStream = process.stderr, options: { json?: boolean } = {}): Reporter {
  return stream.isTTY && !options.json ? new TerminalReporter(stream) : new JsonLinesReporter(stream);
}

export class JsonLinesReporter implements Reporter {
  private lastProgressAt = 0;

  constructor(private readonly out: NodeJS.WritableStream, private readonly now: () => number = Date.now) {}

  event(message: string, fields: Record<string, unknown> = {}): void {
    this.write({ level: 'info', message, ...fields });
  }

  warn(message: string, fields: Record<string, unknown> = {}): void {
    this.write({ level: 'warn', message, ...fields });
  }

  stageStarted(stage: string): void {
    this.write({ level: 'info', message: 'stage started', stage });
  }

  progress(done: number, total?: number): void {
    // Logs are for reading later: one progress line every 10 s at most.
    if (this.now() - this.lastProgressAt < 10_000) return;
    this.lastProgressAt = this.now();
    this.write({ level: 'info', message: 'progress', done, ...(total === undefined ? {} : { total }) });
  }

  stageFinished(stage: string, outcome: StageOutcome): void {
    this.write({ level: outcome.status === 'failed' ? 'error' : 'info', message: `stage ${outcome.status}`, stage, ...outcome, seconds: round(outcome.seconds) });
  }

  private write(fields: Record<string, unknown>): void {
    this.out.write(`${JSON.stringify({ time: new Date(this.now()).toISOString(), ...fields })}\n`);
  }
}

class TerminalReporter implements Reporter {
  private bar: cliProgress.SingleBar | null = null;
  private stage = '';

  constructor(private readonly out: NodeJS.WriteStream) {}

  event(message: string, fields: Record<string, unknown> = {}): void {
    this.line(`${message}${formatFields(fields)}`);
  }

  warn(message: string, fields: Record<string, unknown> = {}): void {
    this.line(`warning: ${message}${formatFields(fields)}`);
  }

  stageStarted(stage: string): void {
    this.stage = stage;
    this.bar = new cliProgress.SingleBar(
      { stream: this.out, format: `${stage.padEnd(9)} [{bar}] {value}/{total}`, hideCursor: true, clearOnComplete: true, fps: 10 },
      cliProgress.Presets.shades_classic,
    );
    this.bar.start(1, 0);
  }

  progress(done: number, total?: number): void {
    if (!this.bar) return;
    this.bar.setTotal(total ?? Math.max(done, 1));
    this.bar.update(done);
  }

  stageFinished(stage: string, outcome: StageOutcome): void {
    this.bar?.stop();
    this.bar = null;
    const counts = Object.entries(outcome.counts).map(([k, v]) => `${k}=${v}`).join(' ');
    const detail = outcome.error ? `: ${outcome.errorCode ? `${outcome.errorCode}: ` : ''}${outcome.error}` : counts ? ` (${counts})` : '';
    this.out.write(`${stage.padEnd(9)} ${outcome.status} in ${round(outcome.seconds)} s${detail}\n`);
    this.stage = '';
  }

  private line(text: string): void {
    if (this.bar) this.bar.stop();
    this.out.write(`${text}\n`);
    if (this.bar && this.stage) this.stageStarted(this.stage);
  }
}

/** For tests and library use: remembers everything, prints nothing. */
export class RecordingReporter implements Reporter {
  readonly lines: Array<Record<string, unknown>> = [];
  event(message: string, fields: Record<string, unknown> = {}): void {
    this.lines.push({ level: 'info', message, ...fields });
  }
  warn(message: string, fields: Record<string, unknown> = {}): void {
    this.lines.push({ level: 'warn', message, ...fields });
  }
  stageStarted(stage: string): void {
    this.lines.push({ message: 'stage started', stage });
  }
  progress(): void {}
  stageFinished(stage: string, outcome: StageOutcome): void {
    this.lines.push({ message: `stage ${outcome.status}`, stage, ...outcome });
  }
}

function formatFields(fields: Record<string, unknown>): string {
  const entries = Object.entries(fields);
  return entries.length ? ` (${entries.map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ')})` : '';
}

function round(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}
