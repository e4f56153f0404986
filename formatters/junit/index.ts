/**
 * JUnit XML and its dialects (Surefire, Gradle, pytest, jest-junit, go-junit-report, PHPUnit,
 * googletest, Catch2, Playwright, cargo-nextest, …). See README.md beside this file.
 */
import { xmlParse } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { junitHandler } from './parse.js';
import { sniff } from './sniff.js';

export const junit = {
  key: 'junit',
  title: 'JUnit XML',
  extensions: ['.xml'],
  mediaTypes: ['application/xml', 'text/xml', 'application/junit+xml'],
  sniff,
  parse: xmlParse(junitHandler),
} satisfies Formatter;
