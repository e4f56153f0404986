/**
 * The Gherkin state machine: the lines of a `.feature` file in, containers out, as Cucumber
 * compiles the file into scenarios ("pickles"), each with the status `unknown` (a feature file says
 * what to test, not how it went). It holds the open Feature and Rule, their Backgrounds' steps,
 * and the open Scenario with its steps (an outline's steps are the template of each Examples row,
 * so they wait for the rows); each row is emitted as it is read.
 */
import { FormatError, TextBuffer, capText, fileTitle, newContainer, ownCopy } from '../../lib/formatter/api.js';
import type { Emit, HandlerContext, Property } from '../../lib/formatter/api.js';
import { LANGUAGE_LINE, dialect, featureLanguage, headerOf, stepOf } from './dialects.js';
import type { Dialect, HeaderKind } from './dialects.js';

/** What tags may stand before. */
const TAGGABLE: ReadonlySet<HeaderKind> = new Set(['feature', 'rule', 'scenario', 'scenarioOutline', 'examples']);
/** Comments kept per element, and characters per comment: notes, not a second copy of the file. */
const MAX_COMMENTS = 20;
const COMMENT_CHARS = 1000;

/** Text under a keyword line: its lines with the first line's indentation removed, trailing blank lines dropped. */
class Description {
  private readonly buffer: TextBuffer;
  private indent = -1;
  private blanks = 0;

  constructor(limit: number) {
    this.buffer = new TextBuffer(limit);
  }

  add(line: string): void {
    const text = line.trimEnd();
    if (text === '') {
      if (this.indent >= 0) this.blanks++;
      return;
    }
    const lead = text.length - text.trimStart().length;
    if (this.indent < 0) this.indent = lead;
    if (!this.buffer.empty) this.buffer.append('\n'.repeat(1 + this.blanks));
    this.buffer.append(text.slice(Math.min(lead, this.indent)));
    this.blanks = 0;
  }

  value(): string | null {
    return this.buffer.empty ? null : this.buffer.value();
  }
}

interface Element {
  keyword: string;
  name: string;
  line: number;
  tags: string[];
  comments: string[];
  description: Description;
}

interface Group extends Element {
  id: number;
  parentId: number | null;
  /** The steps of its Background, which every scenario under it runs first. */
  background: Step[];
}

interface Step {
  keyword: string;
  text: string;
  line: number;
  comments: string[];
  docString: { mediaType: string | null; content: string; first: boolean } | null;
  /** The data table as rows of `| a | b |`, capped. */
  table: TextBuffer | null;
  cells: number;
}

interface Examples extends Element {
  /** Position among the scenario's Examples, from 1 (Cucumber numbers rows `#examples.row`). */
  index: number;
  header: string[] | null;
  rows: number;
}

interface Scenario extends Element {
  id: number;
  parentId: number;
  steps: Step[];
  examples: Examples | null;
  /** Examples blocks seen: with one, even an empty one, the scenario is an outline. */
  examplesCount: number;
}

type Section = 'start' | 'feature' | 'rule' | 'background' | 'scenario' | 'examples';

/** A line-driven state machine: `line` per line of the file (without its end), then `end()`. */
export interface GherkinMachine {
  line(text: string, n: number): void;
  end(): void;
}

export function gherkinHandler(ctx: HandlerContext, emit: Emit): GherkinMachine {
  const limit = ctx.limits.maxTextChars;
  let d: Dialect = dialect('en')!;
  let languageNamed = false;
  let section: Section = 'start';
  let feature: Group | null = null;
  let rule: Group | null = null;
  let background: Step[] | null = null;
  let scenario: Scenario | null = null;
  let step: Step | null = null;
  /** What may follow the last step: a data table or doc string right after it, more rows after a row. */
  let argument: 'step' | 'table' | 'doc' | 'none' = 'none';
  let tags: string[] = [];
  let tagsLine = 0;
  let comments: string[] = [];
  let doc: { delimiter: string; indent: number; mediaType: string | null; content: TextBuffer; line: number } | null =
    null;

  const fail = (n: number, message: string): never => {
    throw new FormatError(`Line ${n}: ${message}`, n);
  };

  const element = (keyword: string, name: string, n: number): Element => {
    const e = {
      keyword,
      name: ownCopy(name),
      line: n,
      tags,
      comments,
      description: new Description(limit),
    };
    tags = [];
    comments = [];
    return e;
  };

  const titleOf = (e: Element): string => e.name || `${e.keyword} (line ${e.line})`;

  const properties = (tagList: string[], commentList: string[]): Property[] => [
    ...tagList.map((value) => ({ name: 'tag', value })),
    ...commentList.map((value) => ({ name: 'comment', value })),
  ];

  const emitGroup = (g: Group, title: string, meta: Record<string, string>): void => {
    emit(
      newContainer({
        id: g.id,
        parentId: g.parentId,
        type: 'suite',
        title,
        status: 'unknown',
        stdout: g.description.value(),
        properties: properties(g.tags, g.comments),
        meta: { keyword: g.keyword, line: String(g.line), ...meta },
      }),
    );
  };

  /** The steps of one scenario (a plain one, or one Examples row with its values put in). */
  const emitSteps = (parentId: number, own: Step[], put: (s: string) => string): void => {
    // Cucumber runs the Backgrounds only for a scenario that has steps of its own.
    if (own.length === 0) return;
    const titles = new Set<string>();
    const all: [Step, boolean][] = [
      ...(feature?.background ?? []).map((s): [Step, boolean] => [s, true]),
      ...(rule?.background ?? []).map((s): [Step, boolean] => [s, true]),
      ...own.map((s): [Step, boolean] => [s, false]),
    ];
    for (const [s, fromBackground] of all) {
      const meta: Record<string, string> = { keyword: s.keyword, line: String(s.line) };
      if (fromBackground) meta['background'] = 'true';
      const doc = s.docString ? put(s.docString.content) : null;
      const table = s.table ? put(s.table.value()) : null;
      if (s.docString?.mediaType) meta['mediaType'] = put(s.docString.mediaType);
      const parts = s.docString?.first ? [doc, table] : [table, doc];
      const stdout = capText(parts.filter((x) => x !== null).join('\n\n') || null, limit);
      emit(
        newContainer({
          id: ctx.nextId(),
          parentId,
          type: 'step',
          title: unique(titles, `${s.keyword}${put(s.text)}`.trim()),
          status: 'unknown',
          stdout,
          properties: properties([], s.comments),
          meta,
        }),
      );
    }
  };

  const inherited = (own: string[], more: string[] = []): string[] => [
    ...new Set([...(feature?.tags ?? []), ...(rule?.tags ?? []), ...own, ...more]),
  ];

  const closeScenario = (): void => {
    const s = scenario;
    if (!s) return;
    scenario = null;
    step = null;
    argument = 'none';
    const meta = { keyword: s.keyword, line: String(s.line), file: ctx.fileName };
    if (s.examplesCount === 0) {
      emitSteps(s.id, s.steps, (x) => x);
      emit(
        newContainer({
          id: s.id,
          parentId: s.parentId,
          type: 'scenario',
          title: titleOf(s),
          status: 'unknown',
          stdout: s.description.value(),
          properties: properties(inherited(s.tags), s.comments),
          meta,
        }),
      );
      return;
    }
    // An outline: a suite of its rows, which were emitted as they were read.
    emit(
      newContainer({
        id: s.id,
        parentId: s.parentId,
        type: 'suite',
        title: titleOf(s),
        status: 'unknown',
        stdout: s.description.value(),
        properties: properties(s.tags, s.comments),
        meta,
      }),
    );
  };

  const row = (s: Scenario, ex: Examples, cells: string[], n: number): void => {
    const header = ex.header!;
    const put = (text: string): string =>
      header.reduce((acc, h, i) => (acc.includes(`<${h}>`) ? acc.split(`<${h}>`).join(cells[i]!) : acc), text);
    ex.rows++;
    const name = put(s.name);
    // Cucumber's name for an Examples row (its JUnit XML and the JUnit Platform engine): `#1.2`, and the
    // row's own name after it when the outline's name takes values from the row.
    const number = `#${ex.index}.${ex.rows}`;
    const id = ctx.nextId();
    emitSteps(id, s.steps, put);
    const meta: Record<string, string> = {
      keyword: s.keyword,
      line: String(n),
      outlineLine: String(s.line),
      examplesLine: String(ex.line),
      file: ctx.fileName,
    };
    if (name) meta['name'] = name;
    if (ex.name) meta['examples'] = ex.name;
    emit(
      newContainer({
        id,
        parentId: s.id,
        type: 'scenario',
        // Unique by its number: no set of a million rows' titles is kept.
        title: name !== s.name ? `${number}: ${name}` : number,
        status: 'unknown',
        stdout: ex.description.value(),
        properties: [
          ...properties(inherited(s.tags, ex.tags), []),
          ...header.flatMap((h, i) => (h ? [{ name: h, value: cells[i]! }] : [])),
        ],
        meta,
      }),
    );
  };

  const closeRule = (): void => {
    closeScenario();
    if (!rule) return;
    emitGroup(rule, titleOf(rule), {});
    rule = null;
  };

  const header = (kind: HeaderKind, keyword: string, name: string, n: number): void => {
    if (kind === 'feature') {
      if (feature) fail(n, `a second ${keyword}: a .feature file holds one Feature`);
      feature = { ...element(keyword, name, n), id: ctx.nextId(), parentId: null, background: [] };
      section = 'feature';
      return;
    }
    if (!feature) return fail(n, `${keyword} before the Feature line`);
    switch (kind) {
      case 'rule':
        closeRule();
        rule = { ...element(keyword, name, n), id: ctx.nextId(), parentId: feature.id, background: [] };
        section = 'rule';
        return;
      case 'background':
        closeScenario();
        // A Background has no container of its own: its steps join each scenario after it.
        background = rule ? rule.background : feature.background;
        comments = [];
        section = 'background';
        return;
      case 'scenario':
      case 'scenarioOutline':
        closeScenario();
        scenario = {
          ...element(keyword, name, n),
          id: ctx.nextId(),
          parentId: rule ? rule.id : feature.id,
          steps: [],
          examples: null,
          examplesCount: 0,
        };
        section = 'scenario';
        return;
      case 'examples':
        if (!scenario) return fail(n, `${keyword} outside a Scenario Outline`);
        scenario.examples = { ...element(keyword, name, n), index: ++scenario.examplesCount, header: null, rows: 0 };
        step = null;
        argument = 'none';
        section = 'examples';
    }
  };

  const addStep = (keyword: string, text: string, n: number): void => {
    const s: Step = { keyword, text: ownCopy(text), line: n, comments, docString: null, table: null, cells: 0 };
    comments = [];
    if (section === 'background') background!.push(s);
    else scenario!.steps.push(s);
    step = s;
    argument = 'step';
  };

  const tableRow = (text: string, n: number): void => {
    const cells = parseRow(text);
    if (section === 'examples') {
      const ex = scenario!.examples!;
      if (ex.header === null) {
        ex.header = cells.map(ownCopy);
        return;
      }
      if (cells.length !== ex.header.length)
        fail(n, `${cells.length} cells where the Examples header has ${ex.header.length}`);
      return row(scenario!, ex, cells, n);
    }
    const s = step!;
    if (s.table === null) {
      s.table = new TextBuffer(limit);
      s.cells = cells.length;
    } else {
      if (cells.length !== s.cells) fail(n, `${cells.length} cells where the table's first row has ${s.cells}`);
      s.table.append('\n');
    }
    s.table.append(
      `| ${cells.map((c) => c.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replaceAll('\n', '\\n')).join(' | ')} |`,
    );
    argument = 'table';
  };

  const describe = (text: string): void => {
    const target =
      section === 'feature'
        ? feature
        : section === 'rule'
          ? rule
          : section === 'scenario'
            ? scenario
            : section === 'examples'
              ? scenario!.examples
              : null;
    target?.description.add(text);
  };

  const docLine = (raw: string, n: number): void => {
    const open = doc!;
    if (raw.trimStart().startsWith(open.delimiter)) {
      step!.docString = { mediaType: open.mediaType, content: open.content.value(), first: step!.table === null };
      doc = null;
      argument = 'doc';
      return;
    }
    const lead = raw.length - raw.trimStart().length;
    const text = raw.slice(Math.min(lead, open.indent));
    const escaped = open.delimiter === '"""' ? '\\"\\"\\"' : '\\`\\`\\`';
    if (n > open.line + 1) open.content.append('\n');
    open.content.append(text.includes(escaped) ? text.replaceAll(escaped, open.delimiter) : text);
  };

  /** Free text is a description until the first step (or the Examples table); after it, a mistake. */
  const descriptionOpen = (): boolean => {
    switch (section) {
      case 'feature':
      case 'rule':
        return true;
      case 'background':
        return background!.length === 0;
      case 'scenario':
        return scenario!.steps.length === 0;
      case 'examples':
        return scenario!.examples!.header === null;
    }
    return false;
  };

  return {
    line(raw, n) {
      if (doc) return docLine(raw, n);
      const text = raw.trim();
      if (text === '') {
        if (descriptionOpen()) describe('');
        return;
      }
      if (text.startsWith('#')) {
        const language = section === 'start' ? LANGUAGE_LINE.exec(text) : null;
        if (language) {
          d = dialect(language[1]!) ?? fail(n, `"${language[1]}" is not a language Gherkin knows`);
          languageNamed = true;
          return;
        }
        if (comments.length < MAX_COMMENTS) comments.push(capText(ownCopy(text.slice(1).trim()), COMMENT_CHARS));
        return;
      }
      if (text.startsWith('@')) {
        // `@a @b #comment`: a `#` after a space starts a comment; `@a@b` is two tags.
        const uncommented = text.split(/\s#/, 1)[0]!;
        for (const tag of uncommented.split('@')) {
          const name = tag.trim();
          if (name === '') continue;
          if (/\s/.test(name)) fail(n, `the tag "@${name}" holds a space`);
          tags.push(ownCopy(`@${name}`));
        }
        tagsLine = n;
        return;
      }
      // Without a `# language:` header, the Feature line may be in the project's default language.
      if (section === 'start' && !languageNamed) d = featureLanguage(text) ?? d;
      const h = headerOf(d, text);
      if (tags.length > 0 && !(h && TAGGABLE.has(h.kind)))
        fail(tagsLine, 'tags go on the line before a Feature, Rule, Scenario or Examples');
      if (h) return header(h.kind, h.keyword, h.name, n);
      if (section === 'start') return fail(n, 'a .feature file starts with its Feature line (after comments and tags)');
      const steps = section === 'background' || section === 'scenario';
      const s = steps ? stepOf(d, text) : null;
      if (s) return addStep(s.keyword, s.text, n);
      if (text.startsWith('|')) {
        if (section === 'examples') return tableRow(text, n);
        // Cucumber takes a data table and a doc string on one step, in either order.
        if (step && (argument === 'step' || argument === 'table' || (argument === 'doc' && !step.table)))
          return tableRow(text, n);
      }
      const docAllowed = step && (argument === 'step' || argument === 'table') && !step.docString;
      if ((text.startsWith('"""') || text.startsWith('```')) && docAllowed) {
        const delimiter = text.slice(0, 3);
        const mediaType = text.slice(3).trim() || null;
        doc = { delimiter, indent: raw.indexOf(delimiter), mediaType, content: new TextBuffer(limit), line: n };
        return;
      }
      if (!descriptionOpen()) fail(n, `"${text.slice(0, 60)}" is not a step, table row, doc string, tag or keyword`);
      describe(raw);
    },

    end() {
      if (doc) fail(doc.line, 'the doc string opened here is not closed');
      if (tags.length > 0) fail(tagsLine, 'tags go on the line before a Feature, Rule, Scenario or Examples');
      if (!feature) throw new FormatError('The file has no Feature line: send a Gherkin .feature file');
      closeRule();
      const f: Group = feature;
      emitGroup(f, f.name || fileTitle(ctx.fileName, f.keyword), { language: d.code, file: ctx.fileName });
    },
  };
}

/**
 * The cells of a table row as Cucumber reads them: `|` separates, text after the last `|` is not
 * part of the table, `\|`, `\\` and `\n` are escapes (another backslash stays), and cells are
 * trimmed of spaces, not of the line breaks an escape put there.
 */
export function parseRow(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  // What stands before the first `|` is not a cell.
  let opened = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '|') {
      if (opened) cells.push(cell.replace(EDGE_SPACE, ''));
      opened = true;
      cell = '';
    } else if (c === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      cell += next === 'n' ? '\n' : next === '|' || next === '\\' ? next : `\\${next}`;
    } else cell += c;
  }
  return cells;
}

const EDGE_SPACE = /^[ \t\v\f\r\u0085\u00A0]+|[ \t\v\f\r\u0085\u00A0]+$/g;

/** `base`, or `base #2`, `#3`… when taken; the title is then taken. */
function unique(used: Set<string>, base: string): string {
  let title = base;
  for (let n = 2; used.has(title); n++) title = `${base} #${n}`;
  used.add(title);
  return title;
}
