import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomically, writeFilesAtomically } from '../../../src/release/atomicFiles.js';
import { releaseEntry } from '../../../src/release/formats/index.js';
import { withCode } from '../../support/errorCodes.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'wikidelta-out-'));
const release = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('a release written as a whole', () => {
  it('replaces an earlier release entirely: no stale per-day file of it beside the new one, nothing temporary left', () => {
    const parent = tempDir();
    const dir = join(parent, 'weekly-2021-01-04');
    writeFilesAtomically(dir, release({ 'queries.jsonl': 'old\n', 'qa_200101.jsonl': 'old day\n' }), releaseEntry());
    writeFilesAtomically(dir, release({ 'queries.jsonl': 'new\n', 'qa_210104.jsonl': 'new day\n', 'README.md': '# card\n' }), releaseEntry());
    expect(readdirSync(dir).sort()).toEqual(['README.md', 'qa_210104.jsonl', 'queries.jsonl']);
    expect(readFileSync(join(dir, 'queries.jsonl'), 'utf8')).toBe('new\n');
    expect(readdirSync(parent)).toEqual(['weekly-2021-01-04']);
  });

  it('leaves the earlier release whole when writing the new one fails part-way', () => {
    const parent = tempDir();
    const dir = join(parent, 'release');
    writeFilesAtomically(dir, release({ 'queries.jsonl': 'old\n', 'native.jsonl': 'old native\n' }), releaseEntry());
    expect(() => writeFilesAtomically(dir, release({ 'queries.jsonl': 'new\n', 'bad\0name.jsonl': 'x' }), releaseEntry())).toThrow();
    expect(readFileSync(join(dir, 'queries.jsonl'), 'utf8')).toBe('old\n');
    expect(readdirSync(dir).sort()).toEqual(['native.jsonl', 'queries.jsonl']);
    expect(readdirSync(parent)).toEqual(['release']);
  });

  it('never follows a symlink planted where a temporary file could go', () => {
    const parent = tempDir();
    const dir = join(parent, 'release');
    mkdirSync(dir);
    const victim = join(parent, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    for (const name of ['queries.jsonl', 'README.md']) symlinkSync(victim, join(dir, `${name}.tmp-${process.pid}`));
    symlinkSync(victim, join(parent, `.release.tmp-${process.pid}`));
    expect(() => writeFilesAtomically(dir, release({ 'queries.jsonl': 'new\n', 'README.md': '# card\n' }), releaseEntry())).toThrow(withCode('E_OUTPUT_DIR_FOREIGN'));
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
  });

  it('writes a release where an --out that is a symlink points, leaving the link a link', () => {
    const parent = tempDir();
    const target = join(parent, 'big-disk', 'weekly-2021-01-04');
    mkdirSync(target, { recursive: true });
    const link = join(parent, 'latest');
    symlinkSync(target, link);
    for (const content of ['first\n', 'second\n']) writeFilesAtomically(link, release({ 'queries.jsonl': content }), releaseEntry());
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(target, 'queries.jsonl'), 'utf8')).toBe('second\n');
    expect(readdirSync(join(parent, 'big-disk'))).toEqual(['weekly-2021-01-04']);
  });

  it('refuses a directory that holds other files, and a path that is a file or under one, with one line', () => {
    const parent = tempDir();
    const other = join(parent, 'mine');
    mkdirSync(other);
    writeFileSync(join(other, 'thesis.tex'), 'months of work\n');
    expect(() => writeFilesAtomically(other, release({ 'queries.jsonl': 'x\n' }), releaseEntry())).toThrow(withCode('E_OUTPUT_DIR_FOREIGN', /^cannot write into .*mine: it holds files this command did not write \(thesis\.tex\)/));
    expect(readFileSync(join(other, 'thesis.tex'), 'utf8')).toBe('months of work\n');
    const file = join(parent, 'plain.txt');
    writeFileSync(file, 'text\n');
    expect(() => writeFilesAtomically(file, release({ 'queries.jsonl': 'x\n' }), releaseEntry())).toThrow(withCode('E_OUTPUT_UNWRITABLE', /plain\.txt is not a directory/));
    expect(() => writeFilesAtomically(join(file, 'release'), release({ 'queries.jsonl': 'x\n' }), releaseEntry())).toThrow(withCode('E_OUTPUT_UNWRITABLE', /plain\.txt is not a directory/));
    expect(readFileSync(file, 'utf8')).toBe('text\n');
  });
});

describe('one output file', () => {
  it('writes into a character device and leaves it a device', () => {
    const device = join(tempDir(), 'null');
    execFileSync('mknod', [device, 'c', '1', '3']);
    writeFileAtomically(device, 'into the device\n');
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  it('writes through a FIFO to its reader and leaves it a FIFO', async () => {
    const fifo = join(tempDir(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    let read = '';
    reader.stdout.on('data', (chunk: Buffer) => (read += chunk.toString()));
    const done = new Promise((resolve) => reader.on('close', resolve));
    writeFileAtomically(fifo, ['line 1\n', 'line 2\n']);
    await done;
    expect(read).toBe('line 1\nline 2\n');
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('names a full device in one line, saying what to do', () => {
    expect(() => writeFileAtomically('/dev/full', 'x'.repeat(1000))).toThrow(
      withCode('E_OUTPUT_UNWRITABLE', /^cannot write \/dev\/full: ENOSPC, the disk is full: free space on it and run the command again$/),
    );
    expect(lstatSync('/dev/full').isCharacterDevice()).toBe(true);
  });

  it('replaces a regular file whole, past a symlink planted at the old temporary names, leaving nothing else', () => {
    const dir = tempDir();
    const path = join(dir, 'qa_210104.jsonl');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    for (const name of [`${path}.tmp-${process.pid}`, `${path}.partial`]) symlinkSync(victim, name);
    writeFileSync(path, 'old\n');
    writeFileAtomically(path, 'new\n');
    expect(readFileSync(path, 'utf8')).toBe('new\n');
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(readdirSync(dir).filter((name) => !name.includes('.tmp-') && !name.endsWith('.partial')).sort()).toEqual(['qa_210104.jsonl', 'victim.txt']);
    expect(existsSync(join(dir, 'qa_210104.jsonl'))).toBe(true);
  });

  it('replaces the file a symlink points to, leaving the link a link', () => {
    const parent = tempDir();
    const target = join(parent, 'predictions-v2.jsonl');
    writeFileSync(target, 'old\n');
    const link = join(parent, 'predictions.jsonl');
    symlinkSync(target, link);
    writeFileAtomically(link, 'new\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(readdirSync(parent).sort()).toEqual(['predictions-v2.jsonl', 'predictions.jsonl']);
  });

  it('refuses a directory, and a path under a file, with one line', () => {
    const dir = tempDir();
    expect(() => writeFileAtomically(dir, 'x')).toThrow(withCode('E_OUTPUT_UNWRITABLE'));
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'text\n');
    expect(() => writeFileAtomically(join(file, 'qa.jsonl'), 'x')).toThrow(withCode('E_OUTPUT_UNWRITABLE', /plain\.txt is not a directory/));
  });
});
