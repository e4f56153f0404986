/**
 * Best guesses at the tool that wrote a JUnit file, from fingerprints each emitter leaves. Each
 * function looks at one kind of element; the parser asks until one answers.
 */
type Attrs = Record<string, string>;

export function producerFromRoot(name: string, a: Attrs): string | null {
  const schema = a['xsi:noNamespaceSchemaLocation'] ?? '';
  if (/surefire/i.test(schema)) return 'surefire';
  if (name !== 'testsuites') return null;
  switch (a['name']) {
    case 'jest tests':
      return 'jest-junit';
    case 'Mocha Tests':
      return 'mocha-junit-reporter';
    case 'nextest-run':
      return 'cargo-nextest';
    case 'AllTests':
      return 'googletest';
    case 'pytest tests':
      return 'pytest';
  }
  return null;
}

export function producerFromSuite(a: Attrs): string | null {
  if (a['name'] === 'pytest') return 'pytest';
  // PHPUnit and Codeception (which writes PHPUnit's logger) count assertions per suite.
  if (a['assertions'] !== undefined) return 'phpunit';
  // Catch2's JUnit reporter leaves the host name as a placeholder.
  if (a['hostname'] === 'tbd') return 'catch2';
  return null;
}

export function producerFromCase(a: Attrs): string | null {
  // googletest writes status="run|notrun" (and result= since 1.10); jasmine-reporters also writes
  // status="notrun", so that value alone says nothing. Catch2 copies gtest but is caught by its suite first.
  if (a['status'] === 'run' || (a['status'] === 'notrun' && a['result'] !== undefined)) return 'googletest';
  if (a['classname'] === 'Test suite failed to run') return 'jest-junit';
  // Playwright joins the describe path with ' › ' and uses the spec file as classname.
  if (a['name']?.includes(' › ') && /\.(spec|test)\.[cm]?[jt]sx?$/.test(a['classname'] ?? '')) return 'playwright';
  return null;
}

/** `rerun*` children are Surefire's; `flaky*` are also written by Gradle (mergeReruns) and Marathon. */
export function producerFromRetry(element: string): string | null {
  return element === 'rerunFailure' || element === 'rerunError' ? 'surefire' : null;
}

export function producerFromProperty(name: string): string | null {
  if (name === 'go.version') return 'go-junit-report';
  if (name.startsWith('surefire.')) return 'surefire';
  return null;
}
