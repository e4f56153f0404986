/**
 * Allure 1 XML (`*-testsuite.xml`, root `<ns2:test-suite xmlns:ns2="urn:model.allure.qatools.yandex.ru">`):
 * SAX events in, containers out in closing order. It keeps the suite, the open test case and its
 * open steps, never the tree.
 */
import { ElementStack, fileTitle, localName, newContainer, noRootError, suiteStatus } from '../../lib/formatter/api.js';
import { TextBuffer, trimmedOrNull, unclosedRootError, wrongRootError } from '../../lib/formatter/api.js';
import type { ContainerStatus, Emit, FailureInfo, HandlerContext, Property } from '../../lib/formatter/api.js';
import type { Timing, XmlMachine } from '../../lib/formatter/api.js';
import { allureStatus, producerName, span } from './values.js';

type Attrs = Record<string, string>;

export const ALLURE1_NAMESPACE = 'urn:model.allure.qatools.yandex.ru';

/** The suite, a test case or a step: all carry a name, a title, labels and attachments. */
interface Node {
  id: number;
  parentId: number | null;
  type: 'suite' | 'test' | 'step';
  name: TextBuffer | null;
  title: TextBuffer | null;
  status: ContainerStatus;
  when: Timing;
  failure: { message: TextBuffer; stack: TextBuffer } | null;
  properties: Property[];
  refs: string[];
  seen: ContainerStatus[];
}

type NodeFrame = { kind: 'node'; node: Node };
type Frame =
  | NodeFrame
  | { kind: 'text'; buffer: TextBuffer }
  | { kind: 'failure'; node: Node }
  | { kind: 'list'; node: Node; item: 'test-case' | 'step' | 'label' | 'attachment' | 'parameter' }
  | { kind: 'ignored' };

const IGNORED: Frame = { kind: 'ignored' };
const MAX_NAME_CHARS = 2000;
const MAX_LIST = 1000;

export function allure1Handler(ctx: HandlerContext, emit: Emit): XmlMachine {
  const limit = ctx.limits.maxTextChars;
  const frames = new ElementStack<Frame>(IGNORED);
  let rootSeen = false;

  const openNode = (type: Node['type'], parent: Node | null, a: Attrs): Node => ({
    id: ctx.nextId(),
    parentId: parent ? parent.id : null,
    type,
    name: null,
    title: null,
    status: allureStatus(a['status']),
    when: span(a['start'], a['stop']),
    failure: null,
    properties: [],
    refs: [],
    seen: [],
  });

  const closeNode = (node: Node): void => {
    const title =
      trimmedOrNull(node.title) ??
      trimmedOrNull(node.name) ??
      (node.type === 'suite' ? fileTitle(ctx.fileName, '(unnamed suite)') : `(unnamed ${node.type})`);
    const status = node.type === 'suite' ? suiteStatus(node.seen) : node.status;
    const failure = status === 'passed' ? null : failureInfo(node);
    // Allure 1 shows the title and keeps the method name apart; the name is worth keeping.
    const name = trimmedOrNull(node.name);
    const meta = name !== null && name !== title ? { name } : undefined;
    // Field by field, not a spread: this runs once per container, and a spread copies the whole record.
    const c = newContainer({
      id: node.id,
      parentId: node.parentId,
      type: node.type,
      title,
      status,
      durationMs: node.when.durationMs,
      startedAt: node.when.startedAt,
      failure,
      properties: node.properties,
      attachmentRefs: node.refs,
      meta,
    });
    if (node.type === 'suite')
      ctx.setProducer(producerName(node.properties.find((p) => p.name === 'framework')?.value ?? null));
    frames.find((f): f is NodeFrame => f.kind === 'node')?.node.seen.push(status);
    emit(c);
  };

  const openChild = (top: Frame, name: string, a: Attrs): Frame => {
    if (top.kind === 'node') {
      const node = top.node;
      switch (name) {
        case 'name':
          return { kind: 'text', buffer: (node.name ??= new TextBuffer(MAX_NAME_CHARS)) };
        case 'title':
          return { kind: 'text', buffer: (node.title ??= new TextBuffer(MAX_NAME_CHARS)) };
        case 'failure':
          node.failure ??= { message: new TextBuffer(limit), stack: new TextBuffer(limit) };
          return { kind: 'failure', node };
        case 'test-cases':
          return node.type === 'suite' ? { kind: 'list', node, item: 'test-case' } : IGNORED;
        case 'steps':
          return node.type === 'suite' ? IGNORED : { kind: 'list', node, item: 'step' };
        case 'labels':
          return { kind: 'list', node, item: 'label' };
        case 'attachments':
          return { kind: 'list', node, item: 'attachment' };
        case 'parameters':
          return { kind: 'list', node, item: 'parameter' };
      }
      return IGNORED;
    }
    if (top.kind === 'failure') {
      const f = top.node.failure!;
      if (name === 'message') return { kind: 'text', buffer: f.message };
      if (name === 'stack-trace') return { kind: 'text', buffer: f.stack };
      return IGNORED;
    }
    if (top.kind === 'list' && name === top.item) {
      const node = top.node;
      switch (top.item) {
        case 'test-case':
          return { kind: 'node', node: openNode('test', node, a) };
        case 'step':
          return { kind: 'node', node: openNode('step', node, a) };
        case 'label':
          if (a['name'] && node.properties.length < MAX_LIST)
            node.properties.push({ name: a['name'], value: a['value'] ?? '' });
          return IGNORED;
        case 'parameter':
          if (a['name'] && node.properties.length < MAX_LIST)
            node.properties.push({ name: `parameter:${a['name']}`, value: a['value'] ?? '' });
          return IGNORED;
        case 'attachment': {
          const source = a['source']?.trim();
          if (source && !node.refs.includes(source) && node.refs.length < MAX_LIST) node.refs.push(source);
          return IGNORED;
        }
      }
    }
    return IGNORED;
  };

  return {
    open(rawName, a) {
      const name = localName(rawName);
      if (!rootSeen) {
        if (name !== 'test-suite' || !Object.values(a).includes(ALLURE1_NAMESPACE))
          throw wrongRootError(`<${rawName}>`, `an Allure 1 <test-suite> in namespace ${ALLURE1_NAMESPACE}`);
        rootSeen = true;
        frames.push({ kind: 'node', node: openNode('suite', null, a) });
        return;
      }
      frames.open((top) => openChild(top, name, a));
    },

    text(t) {
      frames.text(t);
    },

    close() {
      const frame = frames.pop();
      if (frame?.kind === 'node') closeNode(frame.node);
    },

    end() {
      if (!rootSeen) throw noRootError('an Allure 1 *-testsuite.xml file');
      if (frames.depth > 0) throw unclosedRootError();
    },
  };
}

function failureInfo(node: Node): FailureInfo | null {
  if (!node.failure) return null;
  const message = trimmedOrNull(node.failure.message);
  const stack = trimmedOrNull(node.failure.stack);
  return message === null && stack === null ? null : { message, type: null, stack };
}
