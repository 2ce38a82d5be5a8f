/**
 * The doc-comment check (scripts/check-docs.ts): which exported declarations need a doc comment, and
 * what counts as one. Fed source text, so it does not depend on the state of the checked folders.
 */
import { describe, expect, it } from 'vitest';
import { undocumentedExports } from '../../../scripts/check-docs.js';

const names = (text: string) => undocumentedExports('module.ts', text).map((entry) => `${entry.line}:${entry.kind}:${entry.name}`);

describe('undocumentedExports', () => {
  it('names each exported function, class and const function without a doc comment, by line', () => {
    const text = [
      'export function plain() {}',
      'export async function* stream() {}',
      'export class Source {}',
      'export const arrow = (x: number) => x;',
      'export const wrapped = ((x: number) => x) as (x: number) => number;',
      'export const expression = function () {};',
      'export default function () {}',
    ].join('\n');
    expect(names(text)).toEqual([
      '1:function:plain',
      '2:function:stream',
      '3:class:Source',
      '4:const function:arrow',
      '5:const function:wrapped',
      '6:const function:expression',
      '7:function:default',
    ]);
  });

  it('accepts a doc comment with text, above the declaration or its export statement', () => {
    const text = [
      '/** Says what it does. */',
      'export function documented() {}',
      '/**',
      ' * Reads a source.',
      ' * @example new Source()',
      ' */',
      'export class Source {}',
      '/** The identity. */',
      'export const arrow = (x: number) => x;',
    ].join('\n');
    expect(names(text)).toEqual([]);
  });

  it('does not count a line comment, an empty doc comment or one of tags alone', () => {
    const text = ['// Says what it does.', 'export function lined() {}', '/** */', 'export function empty() {}', '/** @example tagged() */', 'export function tagged() {}'].join('\n');
    expect(names(text)).toEqual(['2:function:lined', '4:function:empty', '6:function:tagged']);
  });

  it('leaves out what a newcomer does not call: non-exported code, values, types, re-exports', () => {
    const text = [
      'function internal() {}',
      'export const LIMIT = 3;',
      'export const registry = [internal] as const;',
      'export interface Options { a: number }',
      'export type Name = string;',
      "export { helper } from './helper.js';",
    ].join('\n');
    expect(names(text)).toEqual([]);
  });

  it('takes an overloaded function as documented when one of its signatures is, and names it once otherwise', () => {
    const documented = ['/** Parses. */', 'export function parse(a: string): string;', 'export function parse(a: number): number;', 'export function parse(a: unknown) { return a; }'].join('\n');
    const undocumented = ['export function parse(a: string): string;', 'export function parse(a: unknown) { return a; }'].join('\n');
    expect(names(documented)).toEqual([]);
    expect(names(undocumented)).toEqual(['1:function:parse']);
  });
});
