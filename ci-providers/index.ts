/**
 * The built-in CI providers, one folder each (`ci-providers/<key>/`), in key order. A provider is a
 * plain object satisfying `CiProvider` (lib/ci/api.ts) and passes the kit's checks (lib/ci/check.ts).
 */
import type { CiProvider } from '../lib/ci/api.js';
import { buildbot } from './buildbot/index.js';
import { github } from './github/index.js';
import { gitlab } from './gitlab/index.js';
import { jenkins } from './jenkins/index.js';

export const builtinCiProviders: readonly CiProvider[] = [buildbot, github, gitlab, jenkins];
