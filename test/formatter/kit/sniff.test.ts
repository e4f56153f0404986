/** Helpers for votes: a vote that never throws, a prefixed root. */
import t from 'tap';
import { prefixedRoot, safeSniff } from '../../../lib/formatter/api.js';
import { headOf } from '../../helpers/formatter-fixtures.js';

t.test('safeSniff', async (t) => {
  const head = headOf('<testsuites/>', 'r.xml');
  t.equal(safeSniff(() => 0.7)(head), 0.7);
  t.equal(
    safeSniff(() => {
      throw new TypeError('bug');
    })(head),
    0,
  );
});

t.test('prefixedRoot', async (t) => {
  const cases: [text: string, want: boolean][] = [
    ['<x:testsuite xmlns:x="urn:other"/>', true],
    ['<testsuite xmlns="urn:a"/>', false],
    ['<?xml version="1.0"?>\n<!-- <a:b> --><!DOCTYPE t [<!ELEMENT t ANY>]><t/>', false],
    ['\ufeff<ns2:test-suite/>', true],
    ['no markup', false],
  ];
  for (const [text, want] of cases) t.equal(prefixedRoot({ text }), want, text);
});
