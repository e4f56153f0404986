/** Small JUnit documents for HTTP tests. */
export function junitXml(
  o: {
    suite?: string;
    cases?: { name: string; status?: 'passed' | 'failed' | 'error' | 'skipped'; out?: string }[];
    timestamp?: string;
    declaration?: boolean;
  } = {},
): string {
  const cases = o.cases ?? [{ name: 'passes' }, { name: 'fails', status: 'failed' }];
  const body = cases
    .map((c) => {
      const inner =
        (c.status === 'failed' ? '<failure message="expected 1">stack</failure>' : '') +
        (c.status === 'error' ? '<error message="boom">stack</error>' : '') +
        (c.status === 'skipped' ? '<skipped/>' : '') +
        (c.out ? `<system-out><![CDATA[${c.out}]]></system-out>` : '');
      return `    <testcase classname="demo" name="${c.name}" time="0.01">${inner}</testcase>`;
    })
    .join('\n');
  const ts = o.timestamp ?? new Date().toISOString().slice(0, 19);
  return (
    `${o.declaration === false ? '' : '<?xml version="1.0" encoding="UTF-8"?>\n'}<testsuites>\n` +
    `  <testsuite name="${o.suite ?? 'suite'}" tests="${cases.length}" timestamp="${ts}">\n${body}\n` +
    `  </testsuite>\n</testsuites>\n`
  );
}
