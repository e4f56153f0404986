/**
 * The ZAP state machine: SAX events of an `OWASPZAPReport` in, containers out. A site is a suite, an
 * alert a test, each of its instances a `step` under it, emitted as it closes. It holds the open
 * site (the titles its alerts took), the open alert's fields (capped) and the titles of its
 * instances. The 2.4-era "unmerged" report repeats an alert once per URL, with the URL directly in
 * `<alertitem>`: those items are grouped into one alert per site (as the merged report of the same
 * scan lists them), each group held, reduced to its fields, until the site closes.
 */
import { ElementStack, TextBuffer, capText, localName, newContainer, noRootError } from '../../lib/formatter/api.js';
import { ownCopy, parseTimestamp, suiteStatus, textOrNull, unclosedRootError } from '../../lib/formatter/api.js';
import { wrongRootError } from '../../lib/formatter/api.js';
import type { ContainerStatus, Emit, FailureInfo, HandlerContext, Instant } from '../../lib/formatter/api.js';
import type { Property, XmlMachine } from '../../lib/formatter/api.js';
import { alertStatus, confidenceName, plainText, riskName } from './values.js';

type Attrs = Record<string, string>;

/** Alert fields read as a word or number; anything longer is not one of ZAP's values. */
const SHORT_FIELDS = new Set([
  'pluginid',
  'alertRef',
  'alert',
  'name',
  'riskcode',
  'confidence',
  'count',
  'systemic',
  'cweid',
  'wascid',
  'sourceid',
]);
/** Alert fields of prose (HTML paragraphs in the core writer and `traditional-xml`). */
const TEXT_FIELDS = new Set(['desc', 'solution', 'otherinfo', 'reference']);
/** Fields of one place an alert was raised: in `<instance>`, or directly in an unmerged `<alertitem>`. */
const INSTANCE_FIELDS = ['method', 'uri', 'param', 'attack', 'evidence', 'nodeName', 'otherinfo'] as const;
/** The raw HTTP of `traditional-xml-plus`: header (ending in a blank line), then body. */
const REQUEST_FIELDS = new Set(['requestheader', 'requestbody']);
const RESPONSE_FIELDS = new Set(['responseheader', 'responsebody']);
const SHORT_CHARS = 1024;
/**
 * Instance titles an alert remembers to keep them unique (` #2` for a repeat); titles past it take
 * their position instead, which no remembered title can have (a repeat's number stays below it).
 */
const MAX_TRACKED_TITLES = 10_000;
/** One value of an instance (evidence can be a whole script): enough to recognise it. */
const VALUE_CHARS = 8192;

type InstanceField = (typeof INSTANCE_FIELDS)[number];

interface Site {
  id: number;
  title: string;
  startedAt: Instant | null;
  meta: Record<string, string>;
  seen: Set<ContainerStatus>;
  alerts: number;
  /** Alert titles taken in this site: two alerts of one name (another risk or confidence) differ. */
  titles: Set<string>;
  /** Unmerged items by alert, until the site closes. */
  groups: Map<string, Group>;
}

interface Alert {
  id: number;
  fields: Map<string, TextBuffer>;
  /** An unmerged item's own URL, parameter, attack, evidence. */
  flat: Map<InstanceField, TextBuffer> | null;
  merged: boolean;
  instances: number;
  instanceTitles: Set<string>;
  tags: Property[];
}

interface Instance {
  alert: Alert;
  fields: Map<InstanceField, TextBuffer>;
  request: TextBuffer | null;
  response: TextBuffer | null;
}

/** What an alert is once its element closed. */
interface Summary {
  field(name: string): string | null;
  tags: Property[];
}

interface Group {
  id: number;
  title: string;
  summary: Summary;
  count: number;
  instanceTitles: Set<string>;
}

type Frame =
  | { kind: 'root' }
  | { kind: 'site'; site: Site }
  | { kind: 'alerts'; site: Site }
  | { kind: 'alert'; site: Site; alert: Alert }
  | { kind: 'instances'; alert: Alert }
  | { kind: 'instance'; instance: Instance }
  | { kind: 'tags'; alert: Alert }
  | { kind: 'tag'; alert: Alert; key: TextBuffer; link: TextBuffer }
  | { kind: 'text'; buffer: TextBuffer }
  | { kind: 'ignored' };

const IGNORED: Frame = { kind: 'ignored' };

export function zaproxyHandler(ctx: HandlerContext, emit: Emit): XmlMachine {
  const limit = ctx.limits.maxTextChars;
  const frames = new ElementStack<Frame>(IGNORED);
  const siteTitles = new Set<string>();
  let rootSeen = false;
  let reportStart: Instant | null = null;
  const reportMeta: Record<string, string> = {};

  const text = (owner: Map<string, TextBuffer>, name: string, chars: number): Frame => {
    let buffer = owner.get(name);
    if (!buffer) owner.set(name, (buffer = new TextBuffer(chars)));
    return { kind: 'text', buffer };
  };

  const openSite = (a: Attrs): Frame => {
    const hostPort = a['host'] ? (a['port'] ? `${a['host']}:${a['port']}` : a['host']) : '';
    const site: Site = {
      id: ctx.nextId(),
      title: unique(siteTitles, ownCopy(a['name'] || hostPort || '(unnamed site)')),
      startedAt: reportStart,
      meta: { ...reportMeta },
      seen: new Set(),
      alerts: 0,
      titles: new Set(),
      groups: new Map(),
    };
    for (const k of ['host', 'port', 'ssl'] as const) if (a[k] !== undefined) site.meta[k] = a[k];
    return { kind: 'site', site };
  };

  const openAlert = (site: Site): Frame => ({
    kind: 'alert',
    site,
    alert: {
      id: ctx.nextId(),
      fields: new Map(),
      flat: null,
      merged: false,
      instances: 0,
      instanceTitles: new Set(),
      tags: [],
    },
  });

  const alertChild = (alert: Alert, name: string): Frame => {
    if (SHORT_FIELDS.has(name)) return text(alert.fields, name, SHORT_CHARS);
    // An unmerged item writes its URL, parameter, attack and evidence here; its `otherinfo` is the alert's.
    if (name !== 'otherinfo' && (INSTANCE_FIELDS as readonly string[]).includes(name))
      return text((alert.flat ??= new Map()), name, VALUE_CHARS);
    if (TEXT_FIELDS.has(name)) return text(alert.fields, name, limit);
    if (name === 'instances') {
      alert.merged = true;
      return { kind: 'instances', alert };
    }
    if (name === 'tags') return { kind: 'tags', alert };
    return IGNORED;
  };

  const instanceChild = (instance: Instance, name: string): Frame => {
    if ((INSTANCE_FIELDS as readonly string[]).includes(name)) return text(instance.fields, name, VALUE_CHARS);
    if (REQUEST_FIELDS.has(name)) return { kind: 'text', buffer: (instance.request ??= new TextBuffer(limit)) };
    if (RESPONSE_FIELDS.has(name)) return { kind: 'text', buffer: (instance.response ??= new TextBuffer(limit)) };
    return IGNORED;
  };

  const childOf = (top: Frame, name: string, a: Attrs): Frame => {
    switch (top.kind) {
      case 'root':
        return name === 'site' ? openSite(a) : IGNORED;
      case 'site':
        return name === 'alerts' ? { kind: 'alerts', site: top.site } : IGNORED;
      case 'alerts':
        return name === 'alertitem' ? openAlert(top.site) : IGNORED;
      case 'alert':
        return alertChild(top.alert, name);
      case 'instances':
        return name === 'instance'
          ? { kind: 'instance', instance: { alert: top.alert, fields: new Map(), request: null, response: null } }
          : IGNORED;
      case 'instance':
        return instanceChild(top.instance, name);
      case 'tags':
        return name === 'tag'
          ? { kind: 'tag', alert: top.alert, key: new TextBuffer(SHORT_CHARS), link: new TextBuffer(SHORT_CHARS) }
          : IGNORED;
      case 'tag':
        // traditional-xml-plus names the key element `tag` inside `<tag>`.
        if (name === 'tag') return { kind: 'text', buffer: top.key };
        if (name === 'link') return { kind: 'text', buffer: top.link };
        return IGNORED;
    }
    return IGNORED;
  };

  /** One place the alert was raised → a `step` under it. */
  const emitInstance = (
    parentId: number,
    id: number,
    titles: Set<string>,
    ordinal: number,
    fields: Map<InstanceField, TextBuffer>,
    exchange: string | null,
    status: ContainerStatus,
  ): void => {
    const value = (k: InstanceField): string => fields.get(k)?.value().trim() ?? '';
    const base = [value('method'), value('uri')].filter(Boolean).join(' ') || '(no URI)';
    const param = value('param');
    const properties: Property[] = [];
    for (const k of INSTANCE_FIELDS) {
      const v = value(k);
      if (v !== '') properties.push({ name: k, value: k === 'otherinfo' ? plainText(v) : v });
    }
    const wanted = param ? `${base} (${param})` : base;
    // Past the titles it remembers, an instance is told apart by its position (memory stays bounded).
    const title = titles.size < MAX_TRACKED_TITLES ? unique(titles, wanted) : `${wanted} #${ordinal}`;
    emit(
      newContainer({
        id,
        parentId,
        type: 'step',
        title,
        status,
        properties,
        stdout: capText(exchange, limit),
      }),
    );
  };

  const closeInstance = (instance: Instance): void => {
    const { alert } = instance;
    alert.instances++;
    const status = alertStatus(field(alert.fields, 'riskcode'), field(alert.fields, 'confidence'));
    const exchange = [instance.request, instance.response]
      .map((b) => (b ? textOrNull(b)?.trim() : null))
      .filter(Boolean)
      .join('\n\n');
    emitInstance(
      alert.id,
      ctx.nextId(),
      alert.instanceTitles,
      alert.instances,
      instance.fields,
      exchange || null,
      status,
    );
  };

  const emitAlert = (site: Site, id: number, title: string, s: Summary, instances: number): void => {
    const riskcode = s.field('riskcode');
    const confidence = s.field('confidence');
    const status = alertStatus(riskcode, confidence);
    const risk = riskName(riskcode);
    const sureness = confidenceName(confidence);
    const count = s.field('count') ?? String(instances);
    const properties: Property[] = [];
    const meta: Record<string, string> = {};
    const add = (name: string, value: string | null): void => {
      if (value !== null && value !== '') properties.push({ name, value });
    };
    add('risk', risk);
    add('confidence', sureness);
    add('instances', count);
    const cwe = s.field('cweid');
    const wasc = s.field('wascid');
    // ZAP writes -1 or 0 for "no CWE/WASC".
    if (cwe !== null && Number(cwe) > 0) add('CWE', `CWE-${cwe}`);
    if (wasc !== null && Number(wasc) > 0) add('WASC', `WASC-${wasc}`);
    add('plugin', s.field('pluginid'));
    properties.push(...s.tags);
    for (const k of ['pluginid', 'alertRef', 'riskcode', 'confidence', 'cweid', 'wascid', 'sourceid', 'systemic'])
      if (s.field(k) !== null) meta[k] = s.field(k)!;
    meta['count'] = count;
    site.seen.add(status);
    site.alerts++;
    emit(
      newContainer({
        id,
        parentId: site.id,
        type: 'test',
        title,
        status,
        failure: failureOf(status, risk, sureness, count),
        stdout: capText(report(s), limit),
        properties,
        meta,
      }),
    );
  };

  const alertTitle = (site: Site, s: Summary): string => {
    const name = s.field('name') || s.field('alert') || (s.field('pluginid') ? `Alert ${s.field('pluginid')}` : '');
    const base = name || '(unnamed alert)';
    if (!site.titles.has(base)) return unique(site.titles, base);
    // ZAP lists one alert per risk and confidence: the same name twice differs in those.
    const risk = riskName(s.field('riskcode')) ?? 'unknown';
    const sureness = confidenceName(s.field('confidence')) ?? 'unknown';
    return unique(site.titles, `${base} (${risk} risk, ${sureness} confidence)`);
  };

  const closeAlert = (site: Site, alert: Alert): void => {
    const s = summarize(alert);
    if (alert.merged || alert.flat === null) {
      emitAlert(site, alert.id, alertTitle(site, s), s, alert.instances);
      return;
    }
    // An unmerged item: one instance of the alert that its plugin, name, risk and confidence name.
    const key = ['pluginid', 'name', 'alert', 'riskcode', 'confidence'].map((k) => s.field(k) ?? '').join('\u0000');
    let group = site.groups.get(key);
    let instanceId = alert.id;
    if (!group) {
      group = { id: alert.id, title: alertTitle(site, s), summary: s, count: 0, instanceTitles: new Set() };
      site.groups.set(key, group);
      instanceId = ctx.nextId();
    }
    group.count++;
    const status = alertStatus(s.field('riskcode'), s.field('confidence'));
    emitInstance(group.id, instanceId, group.instanceTitles, group.count, alert.flat, null, status);
  };

  const closeSite = (site: Site): void => {
    for (const g of site.groups.values()) emitAlert(site, g.id, g.title, g.summary, g.count);
    if (site.alerts === 0) {
      // A clean scan is a passed check: without it the report would be empty, and an empty import fails.
      site.seen.add('passed');
      emit(
        newContainer({
          id: ctx.nextId(),
          parentId: site.id,
          type: 'test',
          title: 'No alerts',
          status: 'passed',
          meta: { synthetic: 'no-alerts' },
        }),
      );
    }
    emit(
      newContainer({
        id: site.id,
        parentId: null,
        type: 'suite',
        title: site.title,
        status: suiteStatus(site.seen),
        startedAt: site.startedAt,
        meta: site.meta,
      }),
    );
  };

  const openRoot = (rawName: string, a: Attrs): void => {
    if (localName(rawName) !== 'OWASPZAPReport' || rawName.includes(':'))
      throw wrongRootError(`<${rawName}>`, "ZAP's <OWASPZAPReport>: this is not an OWASP ZAP XML report");
    rootSeen = true;
    // `created` (ISO, reports add-on) has a zone; `generated` has none and is localised (`Fr., 30 Sep. 2022`).
    reportStart = parseTimestamp(a['created']) ?? parseTimestamp(a['generated']);
    if (a['version']) reportMeta['zapVersion'] = a['version'];
    if (a['generated']) reportMeta['generated'] = a['generated'];
    ctx.setProducer('zap');
    frames.push({ kind: 'root' });
  };

  return {
    open(rawName, a) {
      if (!rootSeen) return openRoot(rawName, a);
      frames.open((top) => childOf(top, localName(rawName), a));
    },

    text(t) {
      frames.text(t);
    },

    close() {
      const frame = frames.pop();
      if (!frame) return;
      switch (frame.kind) {
        case 'instance':
          return closeInstance(frame.instance);
        case 'alert':
          return closeAlert(frame.site, frame.alert);
        case 'site':
          return closeSite(frame.site);
        case 'tag': {
          const key = frame.key.value().trim();
          const link = frame.link.value().trim();
          if (key) frame.alert.tags.push({ name: 'tag', value: link ? `${key} ${link}` : key });
        }
      }
    },

    end() {
      if (!rootSeen) throw noRootError('an OWASP ZAP XML report');
      if (frames.depth > 0) throw unclosedRootError();
    },
  };
}

function field(fields: Map<string, TextBuffer>, name: string): string | null {
  const buffer = fields.get(name);
  if (!buffer) return null;
  const v = buffer.value().trim();
  return v === '' ? null : v;
}

/** The alert's fields as strings, so the buffers (and the chunks they hold) can go. */
function summarize(alert: Alert): Summary {
  const values = new Map<string, string>();
  for (const name of alert.fields.keys()) {
    const v = field(alert.fields, name);
    // Unmerged groups keep this until their site closes: copies, not views into input chunks.
    if (v !== null) values.set(name, ownCopy(TEXT_FIELDS.has(name) ? plainText(v) : v));
  }
  return { field: (name) => values.get(name) ?? null, tags: alert.tags };
}

/** What ZAP says about the alert, as the report's sections. */
function report(s: Summary): string | null {
  const sections: [string, string | null][] = [
    ['Description', s.field('desc')],
    ['Solution', s.field('solution')],
    ['Other information', s.field('otherinfo')],
    ['References', s.field('reference')],
  ];
  const text = sections
    .filter(([, v]) => v !== null)
    .map(([label, v]) => `${label}\n${v}`)
    .join('\n\n');
  return text === '' ? null : text;
}

function failureOf(
  status: ContainerStatus,
  risk: string | null,
  sureness: string | null,
  count: string,
): FailureInfo | null {
  const instances = `${count} instance${count === '1' ? '' : 's'}`;
  if (status === 'failed')
    return { message: `${risk} risk, ${sureness ?? 'unknown'} confidence: ${instances}`, type: risk, stack: null };
  if (status === 'skipped') return { message: 'Marked as a false positive', type: null, stack: null };
  return null;
}

/** `base`, or `base #2`, `#3`… when taken; the title is then taken. */
function unique(used: Set<string>, base: string): string {
  let title = base;
  for (let n = 2; used.has(title); n++) title = `${base} #${n}`;
  used.add(title);
  return title;
}
