/**
 * The types of the formatter API (what a formatter is, what it is given, what it emits). The kit
 * builds on these; `api.ts` re-exports them with the kit as the one module a formatter imports.
 */

export type ContainerType = 'suite' | 'test' | 'scenario' | 'step' | 'hook';
export type ContainerStatus = 'passed' | 'failed' | 'errored' | 'skipped' | 'pending' | 'unknown';

export interface FailureInfo {
  message: string | null;
  /** Exception class or failure kind as the file names it. */
  type: string | null;
  stack: string | null;
}

/** One attempt of a test that the format records as retried (Surefire `flaky*`/`rerun*`, ...). */
export interface Attempt {
  status: ContainerStatus;
  durationMs: number | null;
  failure: FailureInfo | null;
}

export interface Property {
  name: string;
  value: string;
}

export interface Container {
  /** From `ctx.nextId()`, taken when the container opens so children can point at it. */
  id: number;
  /** `null` for the top level of this file. */
  parentId: number | null;
  type: ContainerType;
  title: string;
  status: ContainerStatus;
  durationMs: number | null;
  /** ISO 8601 in UTC. */
  startedAt: string | null;
  /** True when the file gave a time without a zone: it was read as UTC, not shifted. */
  startedAtNaive?: boolean;
  failure: FailureInfo | null;
  output: { stdout: string | null; stderr: string | null } | null;
  properties: Property[];
  /** Paths the file refers to (`[[ATTACHMENT|path]]`, attachment properties, ...). */
  attachmentRefs: string[];
  flaky?: boolean;
  attempts?: Attempt[];
  /** Small facts worth keeping: classname, file, line, ... */
  meta?: Record<string, string>;
}

/** Counted as one test of the report's totals. Suites, steps and hooks are not. */
export function isCountedTest(c: Pick<Container, 'type'>): boolean {
  return c.type === 'test' || c.type === 'scenario';
}

/** What `ContainerSink.opened` is told: a container just opened, with the title it will be emitted with. */
export type OpenedContainer = Pick<Container, 'id' | 'parentId' | 'type' | 'title'>;

export interface ContainerSink {
  emit(container: Container): void;
  /**
   * Optional: a container has opened (before any of its children is emitted), with its final title.
   * Lets Tally build a huge suite's history column while the suite is still open; a formatter that
   * never calls it loses nothing but that. The container must later be emitted with the same title.
   */
  opened?(container: OpenedContainer): void;
  /** Resolves when the sink can take more; Tally's helpers await it after each input chunk. */
  ready(): Promise<void> | null;
}

export interface ParseLimits {
  /** Longest stdout/stderr/failure text kept per container, in characters; the rest is cut with a marker. */
  maxTextChars: number;
}

export interface ParseContext {
  /** The file's name as uploaded (for zip entries: the entry path). */
  fileName: string;
  nextId(): number;
  limits: ParseLimits;
  /** Set once the producing tool is known (`surefire`, `pytest`, `jest-junit`, ...). */
  setProducer(name: string): void;
  /** Options of the import that a formatter may honour. */
  options: { smart: boolean };
  /**
   * This file holds no tests by its nature (an Allure `*-container.json`), so Tally does not warn
   * `import_file_resulted_in_empty_report` for it.
   */
  declareNoTests?(): void;
}

/** What a formatter sees to vote: the first bytes of a file, decoded. */
export interface Head {
  fileName: string;
  /** Lower-case extension with its dot ('.xml'), or ''. */
  extension: string;
  /** Up to 64 KiB of the file as decoded text (BOM removed). */
  text: string;
  kind: 'xml' | 'json' | 'text' | 'binary';
  hasXmlDeclaration: boolean;
  /** Local name of the first element, for XML. */
  rootElement: string | null;
  rootAttributes: Record<string, string>;
  /** Names of the first child elements seen in the head, in order, for XML. */
  childElements: string[];
  /** Keys of the top-level object seen in the head, for JSON. */
  topLevelKeys: string[];
  /** True when the whole file fits in the head. */
  complete: boolean;
}

export interface Formatter {
  /** Path segment and stored name. */
  key: string;
  title: string;
  extensions: readonly string[];
  /** Content types accepted for a raw-body import. */
  mediaTypes: readonly string[];
  mergeContainersByDefault?: boolean;
  /** 0 = not mine ... 1 = certainly mine. Pure and cheap; never throws. */
  sniff(head: Head): number;
  parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void>;
}
