/**
 * The built-in formatters, one line each, sorted by key. `test/formatter/registry.test.ts` fails when a
 * folder under formatters/ is missing here.
 */
import type { Formatter } from '../lib/formatter/api.js';
import { allure } from './allure/index.js';
import { ctrf } from './ctrf/index.js';
import { cucumber } from './cucumber/index.js';
import { cucumberMessages } from './cucumber-messages/index.js';
import { dart } from './dart/index.js';
import { gherkin } from './gherkin/index.js';
import { golang } from './golang/index.js';
import { jest } from './jest/index.js';
import { junit } from './junit/index.js';
import { mocha } from './mocha/index.js';
import { mochawesome } from './mochawesome/index.js';
import { nunit } from './nunit/index.js';
import { playwright } from './playwright/index.js';
import { robot } from './robot/index.js';
import { rspec } from './rspec/index.js';
import { serenity } from './serenity/index.js';
import { tap } from './tap/index.js';
import { testng } from './testng/index.js';
import { trx } from './trx/index.js';
import { xctest } from './xctest/index.js';
import { xunit } from './xunit/index.js';
import { zaproxy } from './zaproxy/index.js';

export const builtinFormatters: readonly Formatter[] = [
  allure,
  ctrf,
  cucumber,
  cucumberMessages,
  dart,
  gherkin,
  golang,
  jest,
  junit,
  mocha,
  mochawesome,
  nunit,
  playwright,
  robot,
  rspec,
  serenity,
  tap,
  testng,
  trx,
  xctest,
  xunit,
  zaproxy,
];
