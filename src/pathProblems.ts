import { statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/**
 * For a failure to make or open something under `path` because a regular file stands where a
 * directory must be (ENOTDIR, or EEXIST from mkdir): the words naming that file; undefined for any
 * other failure. mkdir's own words ("EEXIST: file already exists, mkdir '/tmp/a'") say neither which
 * part is wrong nor what.
 *
 * @example notADirectory(error, '/tmp/report.txt/releases') // '/tmp/report.txt is not a directory'
 */
export function notADirectory(error: unknown, path: string): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ENOTDIR' && code !== 'EEXIST') return undefined;
  for (let prefix = path; prefix !== dirname(prefix); prefix = dirname(prefix)) {
    const stats = statIfReachable(prefix);
    if (stats && !stats.isDirectory()) return `${prefix} is not a directory`;
  }
  return undefined;
}

function statIfReachable(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
