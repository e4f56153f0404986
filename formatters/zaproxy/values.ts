/**
 * ZAP's codes and texts → what Tally shows: the status of an alert from its risk and confidence,
 * the English names of both, and the report's text fields as plain text. Pure functions.
 */
import type { ContainerStatus } from '../../lib/formatter/api.js';

/** `riskcode` 0–3 (ZAP's Alert.RISK_*). */
export const RISKS = ['Informational', 'Low', 'Medium', 'High'] as const;
/** `confidence` 0–4 (ZAP's Alert.CONFIDENCE_*). */
export const CONFIDENCES = ['False Positive', 'Low', 'Medium', 'High', 'Confirmed'] as const;

function code(raw: string | null, names: readonly string[]): number | null {
  if (raw === null || !/^\s*\d+\s*$/.test(raw)) return null;
  const n = Number(raw);
  return n < names.length ? n : null;
}

/** The English risk name (`riskdesc` is localised, so it is never read), or null for a code ZAP does not write. */
export function riskName(riskcode: string | null): string | null {
  const n = code(riskcode, RISKS);
  return n === null ? null : RISKS[n]!;
}

export function confidenceName(confidence: string | null): string | null {
  const n = code(confidence, CONFIDENCES);
  return n === null ? null : CONFIDENCES[n]!;
}

/**
 * An alert's status: High and Medium fail, so a pipeline gates on `totals.failed`; Low and
 * Informational pass (ZAP reports them as findings to review, not as vulnerabilities to block on);
 * an alert a user marked as a false positive (confidence 0) is skipped whatever its risk; a risk
 * code ZAP does not write is unknown.
 */
export function alertStatus(riskcode: string | null, confidence: string | null): ContainerStatus {
  if (code(confidence, CONFIDENCES) === 0) return 'skipped';
  const risk = code(riskcode, RISKS);
  if (risk === null) return 'unknown';
  return risk >= 2 ? 'failed' : 'passed';
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", '#39': "'" };

/**
 * A text field as plain text. The core writer and the `traditional-xml` template write HTML
 * paragraphs (`<p>…</p>`, their own text escaped once more); `traditional-xml-plus` writes plain
 * text, which is kept as it is.
 */
export function plainText(raw: string): string {
  const text = raw.trim();
  if (!/^<p>/i.test(text)) return text;
  return text
    .replace(/<\/p>\s*<p>/gi, '\n')
    .replace(/^<p>|<\/p>$/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/&(lt|gt|amp|quot|apos|#39);/g, (_, name: string) => ENTITIES[name]!)
    .trim();
}
