/**
 * Allure results: Allure 2 result and container JSON (usually a zipped `allure-results`
 * folder, one file at a time) and Allure 1 `*-testsuite.xml`. See README.md beside this file.
 */
import { FormatError, parseJson, parseXml, peekFirst } from '../../lib/formatter/api.js';
import type { ContainerSink, Formatter, ParseContext } from '../../lib/formatter/api.js';
import { allure1Handler } from './allure1.js';
import { allure2Handler } from './allure2.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const { first, rest } = await peekFirst(input);
  const emit = (container: Parameters<ContainerSink['emit']>[0]): void => out.emit(container);
  if (first === '<') {
    const handler = allure1Handler(ctx, emit);
    await parseXml(rest, out, handler);
    handler.end();
    return;
  }
  if (first === '{') {
    const handler = allure2Handler(ctx, emit);
    await parseJson(rest, out, handler);
    handler.end();
    return;
  }
  if (first === null)
    throw new FormatError(
      'The file is empty; send an Allure 2 *-result.json / *-container.json or an Allure 1 *-testsuite.xml file',
    );
  throw new FormatError(
    'The file is neither JSON nor XML: an Allure file starts with `{` (Allure 2) or `<` (Allure 1 XML)',
  );
}

export const allure = {
  key: 'allure',
  title: 'Allure results (Allure 2 JSON, Allure 1 XML)',
  extensions: ['.json', '.xml'],
  mediaTypes: ['application/json', 'application/xml', 'text/xml'],
  // One test per Allure 2 file: the suite tree (parentSuite/suite/subSuite labels) only forms when
  // the suites that every result file repeats are combined.
  mergeContainersByDefault: true,
  sniff,
  parse,
} satisfies Formatter;
