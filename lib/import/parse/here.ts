/**
 * Parsing on the import's own thread: plugin formatters (a parse thread cannot load them for
 * sure), and every file when there are no parse threads. The file is in its turn, so its containers
 * take the report's next ids as they come and go straight to the batcher.
 */
import type { Formatter } from '../../formatter/api.js';
import type { EncodingGuess } from '../../formatter/encoding.js';
import { FileAssembler } from '../assemble/assembler.js';
import type { FileOutcome, ReportAssembly } from '../assemble/report-assembly.js';
import { runFormatter } from './run-formatter.js';

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
  return runFormatter(formatter, file.all, assembler, {
    fileName: file.name,
    encoding: file.encoding,
    maxTextChars: o.maxTextChars,
    smart: o.smart,
    nextId: () => ++assembly.seq,
  });
}
