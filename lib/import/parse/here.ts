/**
 * Parsing on the import's own thread: plugin formatters (a parse thread cannot load them for
 * sure), and every file when there are no parse threads. The file is in its turn, so its containers
 * take the report's next ids as they come and go straight to the batcher.
 */
import type { Formatter, ParseContext } from '../../formatter/api.js';
import { decodeText, type EncodingGuess } from '../../formatter/encoding.js';
import { FileAssembler } from '../assemble/assembler.js';
import type { FileOutcome, ReportAssembly } from '../assemble/report-assembly.js';

export interface HereOptions {
  reportId: string;
  smart: boolean;
  maxTextChars: number;
}

export async function parseHere(
  file: { name: string; all: AsyncIterable<Buffer>; encoding: EncodingGuess },
  formatter: Formatter,
  index: number,
  assembly: ReportAssembly,
  o: HereOptions,
): Promise<FileOutcome> {
  const assembler = new FileAssembler(
    o.reportId,
    index,
    assembly.batcher,
    assembly.refs,
    () => assembly.counted(1),
    o.maxTextChars,
  );
  let producer: string | null = null;
  let noTests = false;
  const ctx: ParseContext = {
    fileName: file.name,
    nextId: () => ++assembly.seq,
    limits: { maxTextChars: o.maxTextChars },
    setProducer: (p) => {
      producer = p;
    },
    options: { smart: o.smart },
    declareNoTests: () => {
      noTests = true;
    },
  };
  await formatter.parse(decodeText(file.all, file.encoding), assembler, ctx);
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
