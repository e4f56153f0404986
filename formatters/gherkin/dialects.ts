/**
 * Gherkin's keywords in every language it is written in: `gherkin-languages.json` beside this file
 * is an unmodified copy of `src/gherkin-languages.json` of the `@cucumber/gherkin` npm package,
 * version 42.0.1 (https://github.com/cucumber/gherkin), under this licence:
 *
 * MIT License
 *
 * Copyright (c) 2017 Cucumber Ltd, Gaspar Nagy, Björn Rasmusson, Peter Sergeant, and contributors
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy
 * of this software and associated documentation files (the "Software"), to deal
 * in the Software without restriction, including without limitation the rights
 * to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 * copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all
 * copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 * SOFTWARE.
 */
import languages from './gherkin-languages.json' with { type: 'json' };

/** The keyword kinds that start a line with `Keyword:`. */
export type HeaderKind = 'feature' | 'background' | 'rule' | 'scenario' | 'scenarioOutline' | 'examples';

const HEADER_KINDS: readonly HeaderKind[] = [
  'feature',
  'background',
  'rule',
  'scenario',
  'scenarioOutline',
  'examples',
];
const STEP_KINDS = ['given', 'when', 'then', 'and', 'but'] as const;

type Language = Record<HeaderKind | (typeof STEP_KINDS)[number], string[]> & { name: string; native: string };

export interface Dialect {
  code: string;
  /** `Keyword:` lines, longest keyword first so `Scenario Outline` is not read as `Scenario`. */
  headers: readonly { keyword: string; kind: HeaderKind }[];
  /** Step keywords as written, trailing space included where the language has one (`Given `, `前提`). */
  steps: readonly string[];
  /** The Feature keywords, for the vote. */
  features: readonly string[];
}

/** `# language: fr` before the Feature line (also `#language:fr`, spaces anywhere). */
export const LANGUAGE_LINE = /^\s*#\s*language\s*:\s*([\w-]+)\s*$/;

const table = languages as unknown as Record<string, Language>;
const built = new Map<string, Dialect>();

/** The dialect of a language code (`en`, `fr`, `zh-CN`, `em`), or null when Gherkin has none. */
export function dialect(code: string): Dialect | null {
  const cached = built.get(code);
  if (cached) return cached;
  if (!Object.hasOwn(table, code)) return null;
  const lang = table[code]!;
  // Keywords are trimmed: 42.0.1 spells one Rule keyword with a trailing space, which no file writes before its colon.
  const headers = HEADER_KINDS.flatMap((kind) => lang[kind].map((k) => ({ keyword: k.trim(), kind })))
    .filter((h) => h.keyword !== '')
    .sort((a, b) => b.keyword.length - a.keyword.length);
  const steps = [...new Set(STEP_KINDS.flatMap((kind) => lang[kind]))].sort((a, b) => b.length - a.length);
  const d: Dialect = { code, headers, steps, features: lang.feature.map((k) => k.trim()) };
  built.set(code, d);
  return d;
}

let featureIndex: { keyword: string; code: string }[] | null = null;

/**
 * The language of a Feature line written without a `# language:` header (a project that sets
 * Cucumber's default language, `Fonctionnalité: Panier`): English when it is English, else the first
 * language (by code) with that Feature keyword, longest keyword first. Null when no language has it.
 */
export function featureLanguage(line: string): Dialect | null {
  const isFeature = (keyword: string): boolean => line.startsWith(keyword) && line.charCodeAt(keyword.length) === 58;
  if (dialect('en')!.features.some(isFeature)) return dialect('en');
  featureIndex ??= Object.keys(table)
    .sort()
    .flatMap((code) => table[code]!.feature.map((k) => ({ keyword: k.trim(), code })))
    .sort((a, b) => b.keyword.length - a.keyword.length);
  const hit = featureIndex.find((f) => isFeature(f.keyword));
  return hit ? dialect(hit.code) : null;
}

/** The header kind and the text after `Keyword:` when the (trimmed) line is one, else null. */
export function headerOf(d: Dialect, line: string): { kind: HeaderKind; keyword: string; name: string } | null {
  for (const { keyword, kind } of d.headers)
    if (line.startsWith(keyword) && line.charCodeAt(keyword.length) === 58) {
      return { kind, keyword, name: line.slice(keyword.length + 1).trim() };
    }
  return null;
}

/** The step keyword the (trimmed) line starts with and the step's text, else null. */
export function stepOf(d: Dialect, line: string): { keyword: string; text: string } | null {
  for (const keyword of d.steps)
    if (line.startsWith(keyword)) return { keyword, text: line.slice(keyword.length).trim() };
  return null;
}
