/**
 * Robot Framework `output.xml`, RF 2.x to 7 (also merged by Rebot). See README.md beside this file.
 */
import { xmlParse, XML_FILES } from '../../lib/formatter/api.js';
import type { Formatter } from '../../lib/formatter/api.js';
import { robotHandler } from './parse.js';
import { sniff } from './sniff.js';

export const robot = {
  key: 'robot',
  title: 'Robot Framework output.xml',
  ...XML_FILES,
  sniff,
  parse: xmlParse(robotHandler),
} satisfies Formatter;
