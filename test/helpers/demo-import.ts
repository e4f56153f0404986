/** One demo run (scripts/demo-data.ts, a failed login among its tests) imported into a profile; its report id. */
import { importDemoRun } from '../../scripts/demo-data.js';
import type { Harness } from './tally.js';

export async function importDemoReport(
  h: Harness,
  profileId: string | number,
  i: number,
  timestamp = new Date().toISOString(),
): Promise<number> {
  const r = await importDemoRun({
    url: h.url,
    apiKey: h.apiKey,
    profileId: String(profileId),
    i,
    failLogin: true,
    timestamp,
  });
  if (r.status !== 201) throw new Error(`import answered ${r.status}`);
  return r.body.report_id!;
}
