/**
 * The JSON answer of an import: our shape (DESIGN.md) plus the fields Calliope-style clients read
 * (`report_url`, `report_status_url`, `import_status`, `import_progress`, `message`).
 */
import type { ImportProgress, ImportStatus, Message, Totals } from '../../store/types.js';
import { counted, toldList } from '../../totals.js';

export interface ReportSummary {
  date: string;
  url: string;
  tags: string[];
  files: { name: string; formatter: string; producer: string | null; tests: number }[];
  totals: Totals;
}

export interface ImportResponseBody {
  import_id: string | null;
  /** The report's public number (lib/store/numbers.ts): a 32-bit integer, as Calliope's clients declare it. */
  report_id: number | null;
  /** The profile's public number. */
  profile_id: number;
  status: 'completed' | 'failed' | 'queued';
  import_status: ImportStatus;
  /** Percent, 0–100; null while it cannot be told (a chunked upload in flight). */
  import_progress: number | null;
  /** One sentence summing up the outcome. */
  message: string;
  report_url: string | null;
  report_status_url: string | null;
  messages: Message[];
  report: ReportSummary | null;
}

export function reportPageUrl(baseUrl: string, reportNumber: number): string {
  return `${baseUrl}/reports/${reportNumber}`;
}

export function reportStatusUrl(baseUrl: string, reportNumber: number): string {
  return `${baseUrl}/api/v2/reports/${reportNumber}/status`;
}

/** Percent done of an import in this state. */
export function progressPercent(status: ImportStatus, progress: ImportProgress): number | null {
  if (status === 'completed' || status === 'failed') return 100;
  if (status === 'queued') return 0;
  if (progress.totalBytes) return Math.min(99, Math.floor((progress.bytes / progress.totalBytes) * 100));
  return null;
}

export function summarySentence(
  status: 'completed' | 'failed' | 'queued',
  messages: Message[],
  report: ReportSummary | null,
): string {
  if (status === 'queued') return 'The import is queued; report_status_url shows its progress.';
  if (status === 'failed') {
    const error = messages.find((m) => m.severity === 'error');
    return `The import failed: ${error?.message ?? 'see the messages.'}`;
  }
  const t = report!.totals;
  const warnings = messages.filter((m) => m.severity === 'warning').length;
  const files = report!.files.length;
  const warned = warnings ? ` (${counted(warnings, 'warning')})` : '';
  return `Imported ${counted(t.tests, 'test')} from ${counted(files, 'file')}: ${toldList(t)}${warned}.`;
}

export function answerBody(o: {
  importId: string | null;
  /** The report's public number. */
  reportNumber: number | null;
  /** The profile's public number. */
  profileNumber: number;
  status: 'completed' | 'failed' | 'queued';
  messages: Message[];
  report: ReportSummary | null;
  baseUrl: string;
  progress?: ImportProgress;
}): ImportResponseBody {
  const importStatus: ImportStatus = o.status;
  return {
    import_id: o.importId,
    report_id: o.status === 'failed' ? null : o.reportNumber,
    profile_id: o.profileNumber,
    status: o.status,
    import_status: importStatus,
    import_progress: progressPercent(importStatus, o.progress ?? { bytes: 0, files: 0, containers: 0 }),
    message: summarySentence(o.status, o.messages, o.report),
    report_url: o.reportNumber !== null && o.status !== 'failed' ? reportPageUrl(o.baseUrl, o.reportNumber) : null,
    report_status_url:
      o.reportNumber !== null && o.status !== 'failed' ? reportStatusUrl(o.baseUrl, o.reportNumber) : null,
    messages: o.messages,
    report: o.report,
  };
}
