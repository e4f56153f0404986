/**
 * Running a formatter over one file's bytes, the same wherever it runs (the import thread or a
 * parse thread): the bytes decoded, the context the formatter API promises, and what the file
 * amounted to.
 */
import type { Formatter, ParseContext } from '../../formatter/api.js';
import { decodeText, type EncodingGuess } from '../../formatter/encoding.js';
import type { FileAssembler } from '../assemble/assembler.js';
import type { FileOutcome } from '../assemble/report-assembly.js';

export interface FormatterRun {
  fileName: string;
  encoding: EncodingGuess;
  maxTextChars: number;
  smart: boolean;
  /** The next container id: the report's next one (in the file's turn) or the file's own. */
  nextId(): number;
}

export async function runFormatter(
  formatter: Formatter,
  input: AsyncIterable<Buffer>,
  assembler: FileAssembler,
  o: FormatterRun,
): Promise<FileOutcome> {
  let producer: string | null = null;
  let noTests = false;
  const ctx: ParseContext = {
    fileName: o.fileName,
    nextId: o.nextId,
    limits: { maxTextChars: o.maxTextChars },
    setProducer: (p) => {
      producer = p;
    },
    options: { smart: o.smart },
    declareNoTests: () => {
      noTests = true;
    },
  };
  await formatter.parse(decodeText(input, o.encoding), assembler, ctx);
  return {
    totals: assembler.totals,
    earliest: assembler.earliest,
    duplicates: assembler.duplicates,
    duplicateCount: assembler.duplicateCount,
    truncated: assembler.truncated,
    producer,
    noTests,
  };
}
