/**
 * CI's dependency check: `npm audit --omit=dev --json`, failing (exit 1) on any high or critical
 * advisory in a production dependency. When the registry answers without an audit endpoint (a
 * mirror, or a network that allows only reads) the check cannot be made: it says so and exits 0,
 * or 1 with TALLY_REQUIRE_AUDIT=1.
 */
import { spawnSync } from 'node:child_process';

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
let report: {
  metadata?: { vulnerabilities?: Record<string, number> };
  vulnerabilities?: Record<string, { severity: string; name: string; via: unknown[] }>;
  message?: string;
  statusCode?: number;
};
try {
  report = JSON.parse(run.stdout || '{}');
} catch {
  report = { message: (run.stderr || run.stdout || 'no output').trim().split('\n').slice(-1)[0] };
}

const counts = report.metadata?.vulnerabilities;
if (!counts) {
  const why = report.message ?? `npm audit exited ${run.status} without a report`;
  process.stdout.write(`npm audit: not checked, the registry gave no audit report (${why})\n`);
  process.exit(process.env.TALLY_REQUIRE_AUDIT === '1' ? 1 : 0);
}
const serious = (counts.high ?? 0) + (counts.critical ?? 0);
const names = Object.values(report.vulnerabilities ?? {})
  .filter((v) => v.severity === 'high' || v.severity === 'critical')
  .map((v) => `${v.name} (${v.severity})`);
process.stdout.write(
  `npm audit (production dependencies): ${counts.critical ?? 0} critical, ${counts.high ?? 0} high, ` +
    `${counts.moderate ?? 0} moderate, ${counts.low ?? 0} low${names.length ? `: ${names.join(', ')}` : ''}\n`,
);
process.exit(serious > 0 ? 1 : 0);
