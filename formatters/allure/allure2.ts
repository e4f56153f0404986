/**
 * Allure 2 result files: one JSON object per file. A `*-result.json` is one test; a
 * `*-container.json` groups fixtures (`befores`/`afters`) around results that live in other files
 * and holds no test. The object is streamed key by key: only one step tree, label or fixture is
 * held at a time, never the file.
 */
import { capText, FormatError, isRecord as isObj, newContainer, suiteStatus } from '../../lib/formatter/api.js';
import type { Container, ContainerStatus, Emit, FailureInfo, JsonMachine, JsonPath } from '../../lib/formatter/api.js';
import type { ParseContext, Property, Timing } from '../../lib/formatter/api.js';
import { allureStatus, producerName, span } from './values.js';

type Obj = Record<string, unknown>;

/** Arrays whose elements are taken whole, one at a time. */
const ELEMENT_ARRAYS = new Set(['labels', 'parameters', 'links', 'attachments', 'steps', 'befores', 'afters']);
const SCALARS = new Set(['uuid', 'historyId', 'testCaseId', 'fullName', 'name', 'status', 'stage', 'start', 'stop']);
const MAX_FIELD_CHARS = 2000;
const MAX_LIST = 1000;
/** Labels that place a result in the suite tree, outermost first (Allure's own "Suites" view). */
const SUITE_LABELS = ['parentSuite', 'suite', 'subSuite'];

export type Allure2Context = Pick<ParseContext, 'fileName' | 'nextId' | 'limits' | 'setProducer' | 'declareNoTests'>;

export function allure2Handler(ctx: Allure2Context, emit: Emit): JsonMachine {
  const limit = ctx.limits.maxTextChars;
  let rootId: number | null = null;
  let done = false;
  const fields: Record<string, unknown> = {};
  let details: Obj | null = null;
  const labels: Property[] = [];
  const properties: Property[] = [];
  const refs: string[] = [];
  const titlePath: string[] = [];
  let children = 0;
  let hasChildren = false;
  const fixtureStatuses: ContainerStatus[] = [];

  const addRefs = (list: string[], attachments: unknown): void => {
    if (!Array.isArray(attachments)) return;
    for (const a of attachments) addRef(list, a);
  };

  /** A step tree, children first; every step of a result or fixture is a container. */
  const emitStep = (step: Obj, parentId: number, type: 'step' | 'hook'): ContainerStatus => {
    const id = ctx.nextId();
    const childStatuses: ContainerStatus[] = [];
    if (Array.isArray(step['steps']))
      for (const s of step['steps']) if (isObj(s)) childStatuses.push(emitStep(s, id, 'step'));
    // Fixtures often carry no status of their own (allure-java writes it only on their steps).
    const status =
      step['status'] === undefined && type === 'hook' && childStatuses.length > 0
        ? suiteStatus(childStatuses)
        : allureStatus(step['status']);
    const when = span(step['start'], step['stop']);
    const c = base(
      id,
      parentId,
      type,
      text(step['name']) || `(unnamed ${type})`,
      status,
      when,
      status === 'passed' ? null : failureOf(step['statusDetails'], limit),
    );
    for (const p of parameterProperties(step['parameters'])) c.properties.push(p);
    addRefs(c.attachmentRefs, step['attachments']);
    emit(c);
    return status;
  };

  const element = (key: string, v: unknown): void => {
    switch (key) {
      case 'labels':
        if (isObj(v) && typeof v['name'] === 'string' && labels.length < MAX_LIST)
          labels.push({ name: v['name'], value: text(v['value']) });
        return;
      case 'parameters':
        if (properties.length < MAX_LIST) properties.push(...parameterProperties([v]));
        return;
      case 'links':
        if (isObj(v) && typeof v['url'] === 'string' && properties.length < MAX_LIST)
          properties.push({ name: `link:${text(v['type']) || 'link'}`, value: v['url'] });
        return;
      case 'attachments':
        addRef(refs, v);
        return;
      case 'steps':
        if (isObj(v)) emitStep(v, rootId!, 'step');
        return;
      case 'befores':
      case 'afters':
        if (!isObj(v)) return;
        fixtureStatuses.push(emitStep(v, rootId!, 'hook'));
        return;
    }
  };

  const finishResult = (id: number): void => {
    const status = allureStatus(fields['status']);
    const name = text(fields['name']) || text(fields['fullName']) || text(fields['uuid']) || '(unnamed test)';
    const label = (n: string): string | null => labels.find((l) => l.name === n)?.value || null;
    ctx.setProducer(producerName(label('framework')));
    // The suite tree exists only across files; each result names its own path to the root.
    let path = SUITE_LABELS.map(label).filter((s): s is string => s !== null);
    if (path.length === 0)
      path =
        titlePath.length > 0
          ? [...titlePath]
          : [label('testClass') ?? label('package')].filter((s): s is string => s !== null);
    const suiteIds = path.map(() => ctx.nextId());
    const when = span(fields['start'], fields['stop']);
    const failure = status === 'passed' ? null : failureOf(details, limit);
    const test = base(id, suiteIds[suiteIds.length - 1] ?? null, 'test', name, status, when, failure);
    test.properties = [...labels, ...properties];
    test.attachmentRefs = refs;
    const meta = pickMeta(fields, ['uuid', 'historyId', 'testCaseId', 'fullName']);
    const stage = text(fields['stage']);
    if (stage && stage !== 'finished') meta['stage'] = stage;
    if (details?.['flaky'] === true) meta['allureFlaky'] = 'true';
    if (details?.['muted'] === true) meta['allureMuted'] = 'true';
    if (details?.['known'] === true) meta['allureKnown'] = 'true';
    if (Object.keys(meta).length > 0) test.meta = meta;
    emit(test);
    for (let i = path.length - 1; i >= 0; i--)
      emit(
        base(
          suiteIds[i]!,
          i > 0 ? suiteIds[i - 1]! : null,
          'suite',
          path[i]!,
          status,
          { startedAt: null, durationMs: null },
          null,
        ),
      );
  };

  const finishContainer = (id: number): void => {
    ctx.setProducer('allure');
    const title = text(fields['name']) || `container ${text(fields['uuid']) || ctx.fileName}`;
    const c = base(id, null, 'suite', title, suiteStatus(fixtureStatuses), span(fields['start'], fields['stop']), null);
    c.meta = { ...pickMeta(fields, ['uuid']), allure: 'container', children: String(children) };
    emit(c);
  };

  return {
    open(path, kind) {
      if (path.length === 0) {
        if (kind !== 'object' || rootId !== null)
          throw new FormatError(
            'An Allure 2 result file holds one JSON object (a result or a container); this one does not',
          );
        rootId = ctx.nextId();
        return false;
      }
      if (path.length === 1) return path[0] === 'statusDetails' && kind === 'object';
      return path.length === 2 && ELEMENT_ARRAYS.has(String(path[0]));
    },

    value(path: JsonPath, v: unknown) {
      if (path.length === 0)
        throw new FormatError(
          'An Allure 2 result file holds one JSON object (a result or a container); this one holds a single value',
        );
      const key = String(path[0]);
      if (path.length === 1) {
        if (key === 'statusDetails') details = isObj(v) ? v : null;
        else if (SCALARS.has(key)) fields[key] = typeof v === 'string' ? v.slice(0, MAX_FIELD_CHARS) : v;
        return;
      }
      if (path.length !== 2) return;
      if (key === 'children') {
        children++;
        return;
      }
      if (key === 'titlePath') {
        if (typeof v === 'string' && titlePath.length < MAX_LIST) titlePath.push(v.slice(0, MAX_FIELD_CHARS));
        return;
      }
      element(key, v);
    },

    close(path, kind) {
      if (path.length === 1 && kind === 'array' && path[0] === 'children') hasChildren = true;
    },

    end() {
      if (rootId === null || done) return;
      done = true;
      // Every Allure 2 writer sets `uuid`; a bare name and status is the least a result can be.
      if (
        fields['uuid'] === undefined &&
        !(fields['name'] !== undefined && fields['status'] !== undefined) &&
        !hasChildren
      ) {
        throw new FormatError(
          'The JSON object has no `uuid`: it is not an Allure 2 result or container file; choose the formatter for ' +
            'its format or let Tally detect it',
        );
      }
      // A container is known by what it holds; `*-container.json` in the name settles an empty one.
      const container =
        hasChildren ||
        fixtureStatuses.length > 0 ||
        (fields['status'] === undefined && /container\.json$/i.test(ctx.fileName));
      if (container) {
        // A container file groups fixtures; its tests live in result files.
        ctx.declareNoTests?.();
        finishContainer(rootId);
      } else finishResult(rootId);
    },
  };
}

function base(
  id: number,
  parentId: number | null,
  type: Container['type'],
  title: string,
  status: ContainerStatus,
  when: Timing,
  failure: FailureInfo | null,
): Container {
  // Allure times are epoch milliseconds: never naive.
  return newContainer({ id, parentId, type, title, status, ...when, failure });
}

function failureOf(details: unknown, limit: number): FailureInfo | null {
  if (!isObj(details)) return null;
  const message = capped(details['message'], limit);
  const stack = capped(details['trace'], limit);
  return message === null && stack === null ? null : { message, type: null, stack };
}

/** `parameters[]`: masked values are not shown by Allure and are not stored here either. */
function parameterProperties(list: unknown): Property[] {
  if (!Array.isArray(list)) return [];
  const out: Property[] = [];
  for (const p of list) {
    if (!isObj(p) || typeof p['name'] !== 'string' || p['mode'] === 'hidden') continue;
    out.push({ name: `parameter:${p['name']}`, value: p['mode'] === 'masked' ? '******' : text(p['value']) });
  }
  return out;
}

function addRef(list: string[], attachment: unknown): void {
  if (!isObj(attachment)) return;
  const source = text(attachment['source']).trim();
  if (source && !list.includes(source) && list.length < MAX_LIST) list.push(source);
}

function pickMeta(fields: Record<string, unknown>, keys: string[]): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const k of keys) {
    const v = text(fields[k]);
    if (v) meta[k] = v;
  }
  return meta;
}

function capped(v: unknown, limit: number): string | null {
  return typeof v !== 'string' || v.trim() === '' ? null : capText(v, limit);
}

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}
