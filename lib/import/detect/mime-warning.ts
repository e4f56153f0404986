/**
 * SPEC 4.5 rule 14: XML should start with a declaration, and a file's extension should be one of its
 * formatter's. A warning, never a failure: the file is parsed all the same.
 */
import type { Formatter, Head } from '../../formatter/api.js';
import { message } from '../../messages.js';
import type { Message } from '../../store/types.js';

export function mimeWarning(head: Head, formatter: Formatter): Message | null {
  const reasons: string[] = [];
  if (head.kind === 'xml' && !head.hasXmlDeclaration) reasons.push('the XML has no declaration');
  if (head.extension && !formatter.extensions.includes(head.extension))
    reasons.push(`the extension ${head.extension} is not one of ${formatter.extensions.join(', ')}`);
  if (!head.extension && head.fileName !== 'request-body') reasons.push('the file has no extension');
  if (reasons.length === 0) return null;
  return message('invalid_file_mime_type', {
    file: head.fileName,
    detail: `${head.fileName}: ${reasons.join('; ')}.`,
  });
}
