/**
 * Which addresses a webhook may reach: the public internet only, unless the operator allows more
 * (`TALLY_WEBHOOK_ALLOW_PRIVATE=1`, or ranges in `TALLY_WEBHOOK_ALLOW_CIDRS`). A URL whose host is,
 * or resolves to, a loopback, link-local, private, shared (carrier-grade NAT), unspecified, multicast
 * or reserved address (IPv4 or IPv6, IPv4-mapped IPv6 included) is refused: otherwise anyone who may
 * add a rule could make Tally call the services beside it. A name is refused when any of its
 * addresses is. It is checked when a rule is saved and again at each attempt, inside the connection's
 * own lookup (`lookup`), so a name that changed its address since, or a rebinding one, is caught on
 * the address actually dialled. Redirects are never followed (lib/notify/webhook.ts).
 */
import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { NotifyConfig } from './config.js';

type Family = 'ipv4' | 'ipv6';

/** Ranges no webhook reaches without the operator's leave, each with the words a refusal uses. */
const RANGES: [label: string, family: Family, address: string, prefix: number][] = [
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['shared (carrier-grade NAT)', 'ipv4', '100.64.0.0', 10],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['link-local', 'ipv4', '169.254.0.0', 16],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['reserved (IETF protocol assignments)', 'ipv4', '192.0.0.0', 24],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['reserved (benchmarking)', 'ipv4', '198.18.0.0', 15],
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['reserved', 'ipv4', '240.0.0.0', 4],
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv6', '::1', 128],
  // IPv4-compatible (deprecated) and NAT64 forms could carry any IPv4 address, private ones included.
  ['reserved (IPv4-compatible)', 'ipv6', '::', 96],
  ['NAT64', 'ipv6', '64:ff9b::', 96],
  ['NAT64 (local use)', 'ipv6', '64:ff9b:1::', 48],
  ['unique local (private)', 'ipv6', 'fc00::', 7],
  ['link-local', 'ipv6', 'fe80::', 10],
  ['site-local', 'ipv6', 'fec0::', 10],
  ['multicast', 'ipv6', 'ff00::', 8],
];

const LISTS: [label: string, list: BlockList][] = (() => {
  const byLabel = new Map<string, BlockList>();
  for (const [label, family, address, prefix] of RANGES) {
    const list = byLabel.get(label) ?? new BlockList();
    list.addSubnet(address, prefix, family);
    byLabel.set(label, list);
  }
  return [...byLabel];
})();

/** An address the guard refused: the attempt (or the save) fails with its sentence. */
export class AddressRefused extends Error {
  readonly code = 'notification_url_refused';
  constructor(
    readonly address: string,
    readonly kind: string,
  ) {
    super(`${address} is a ${kind} address`);
    this.name = 'AddressRefused';
  }
}

/** `localhost resolves to 127.0.0.1, a loopback address`, or `10.0.0.1 is a private address`. */
export function refusalSentence(hostname: string, e: AddressRefused): string {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === e.address
    ? `${host} is a ${e.kind} address`
    : `${host} resolves to ${e.address}, a ${e.kind} address`;
}

export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface AddressGuard {
  /** The kind of range that makes `address` refused (`loopback`, `private`, …), or null when it may be reached. */
  refusal(address: string): string | null;
  /** Refuses a URL host (an IP literal, or every address its name resolves to); resolves when it may be reached. */
  checkHost(hostname: string): Promise<void>;
  /** A `lookup` for http.request and tls.connect that refuses what `checkHost` would, on the addresses dialled. */
  readonly lookup: LookupFunction;
}

export function addressGuard(
  config: Pick<NotifyConfig, 'allowPrivate' | 'allowCidrs'>,
  resolve: Resolve = systemResolve,
): AddressGuard {
  const refusal = (address: string): string | null => {
    if (config.allowPrivate) return null;
    const family: Family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (config.allowCidrs?.check(address, family)) return null;
    for (const [label, list] of LISTS) if (list.check(address, family)) return label;
    return null;
  };
  const check = (addresses: readonly { address: string }[]): void => {
    for (const { address } of addresses) {
      const kind = refusal(address);
      if (kind) throw new AddressRefused(address, kind);
    }
  };
  const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');
  return {
    refusal,
    async checkHost(hostname) {
      // Every address is allowed: nothing to look up.
      if (config.allowPrivate) return;
      const host = bare(hostname);
      check(isIP(host) ? [{ address: host }] : await resolve(host));
    },
    lookup: ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
      resolve(bare(hostname)).then(
        (addresses) => {
          try {
            check(addresses);
          } catch (e) {
            return callback(e);
          }
          const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
          const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
          if (usable.length === 0)
            return callback(Object.assign(new Error(`${hostname} has no IPv${wanted} address`), { code: 'ENOTFOUND' }));
          if (options.all) callback(null, usable);
          else callback(null, usable[0]!.address, usable[0]!.family);
        },
        (e: unknown) => callback(e),
      );
    }) as LookupFunction,
  };
}
