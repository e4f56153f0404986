/**
 * The public formatter API (`tally/formatter-api`): what plugin formatters import. Every name of it
 * stays exported: a plugin built against an older Tally keeps loading.
 */
import t from 'tap';
import * as api from '../../lib/formatter/api.js';

t.test('the API exports the types helpers and the kit', async (t) => {
  const functions = [
    'isCountedTest',
    'isFormatError',
    'parseXml',
    'localName',
    'wrongRootError',
    'noRootError',
    'unclosedRootError',
    'textOrNull',
    'trimmedOrNull',
    'capText',
    'truncationMarker',
    'ownCopy',
    'worstStatus',
    'suiteStatus',
    'worseOf',
    'stepResultStatus',
    'splitErrorName',
    'errorFailure',
    'newContainer',
    'erroredTest',
    'xmlParse',
    'jsonParse',
    'parseTimestamp',
    'fromEpochMs',
    'parseJson',
    'forEachLine',
    'forEachJsonLine',
    'parseSeconds',
    'parseTimeSpan',
    'lastPathSegment',
    'secondsToMs',
    'roundMs',
    'fileTitle',
    'lowerWord',
    'skipPreamble',
    'jsonValueStart',
    'jsonStringValue',
    'flatObjectText',
    'safeSniff',
    'prefixedRoot',
    'asString',
    'asNumber',
    'asNonNegative',
    'asRecord',
    'isRecord',
    'asList',
    'parseJsonObject',
  ];
  for (const name of functions) t.type((api as Record<string, unknown>)[name], 'function', name);
  for (const name of ['FormatError', 'IllegalReferenceFilter', 'TextBuffer', 'ScenarioVerdict', 'Stack'])
    t.type((api as Record<string, unknown>)[name], 'function', `class ${name}`);
  t.same(api.SEVERITY, ['errored', 'failed', 'passed', 'skipped', 'pending', 'unknown']);
  t.same(api.SCENARIO_SEVERITY, ['errored', 'failed', 'passed', 'pending', 'skipped', 'unknown']);
});
