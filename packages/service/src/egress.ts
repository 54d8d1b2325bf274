/**
 * Every request the service makes to an address it was given (a topic's source page, its images,
 * the partners' webhooks) goes through {@link guardedFetch}: the name is resolved once, every
 * address it resolves to is checked against the {@link EgressPolicy}, and the connection is made to
 * the checked address (no second lookup that a rebinding name could answer differently).
 * Redirects are never followed here: callers follow them by hand, each hop through this check.
 *
 * The local service's policy (docs/service.md "Outbound requests"; SECURITY.md says what a hosted
 * service must do on top):
 * - always refused: link-local (169.254/16, fe80::/10: cloud metadata lives there), "this network"
 *   (0/8, ::), multicast, reserved and broadcast ranges, and the service's own port on this machine;
 * - loopback (127/8, ::1), never on the service's own port: for topic searches and their images
 *   ({@link sourcePolicy}) only when the operator allows it (`--allow-loopback-sources`, or only the
 *   ports named with `--allow-loopback-port`), since a search reads the page back to whoever asked
 *   and would otherwise show any local port's content; for webhooks ({@link egressPolicy}), whose
 *   URLs only the operator sets and whose answers are not read, while the service itself listens
 *   on loopback (a service that listens elsewhere is reachable by others);
 * - private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) only with
 *   `--allow-private-sources` (`allowPrivateSources`).
 * A refused address, a name that does not resolve and a port that refuses or drops the connection
 * all fail with the same {@link EgressError}: the answer must not tell an internal network's
 * layout (which ports are open) to whoever asked. The detail goes to the log.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

/** What the service may connect to. */
export interface EgressPolicy {
  /** Loopback addresses: allowed on any port (`true`), only on the ports listed, or refused. */
  readonly loopback: boolean | readonly number[];
  /** For the log, when loopback is refused: why, and what allows it. */
  readonly loopbackRefused: string;
  /** Private ranges are allowed (`--allow-private-sources`). */
  readonly private: boolean;
  /** The service's own port: refused on every address of this machine (it would call itself). */
  readonly ownPort: () => number;
}

/** A request the policy refused, or a connection that could not be made: one message outward. */
export class EgressError extends Error {
  constructor(
    readonly url: string,
    /** For the log only: why (refused address, DNS failure, ECONNREFUSED…). */
    readonly detail: string,
  ) {
    super(`${url} could not be reached.`);
  }
}

const ALWAYS_REFUSED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['169.254.0.0', 16],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  ALWAYS_REFUSED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['fe80::', 10],
  ['ff00::', 8],
  ['100::', 64],
  ['2001:db8::', 32],
  // A well-known cloud metadata address inside fc00::/7.
  ['fd00:ec2::254', 128],
] as const) {
  ALWAYS_REFUSED.addSubnet(net, prefix, 'ipv6');
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

/**
 * The IPv4 address inside an IPv6 one that carries it (IPv4-mapped `::ffff:a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`), so that the IPv4 ranges apply to it; else undefined.
 */
export function embeddedIPv4(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = parseInt(match[2]!, 16);
  const low = parseInt(match[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why `address` (an IP literal) may not be connected to on `port`, or undefined when it may. */
export function refusal(address: string, port: number, policy: EgressPolicy): string | undefined {
  const v4 = embeddedIPv4(address);
  const [ip, family] = v4
    ? [v4, 'ipv4' as const]
    : [address, isIP(address) === 6 ? ('ipv6' as const) : ('ipv4' as const)];
  if (ALWAYS_REFUSED.check(ip, family)) return `${address} is in a range the service never connects to`;
  const loopback = LOOPBACK.check(ip, family);
  if (loopback && policy.loopback === false) return `${address} is loopback: ${policy.loopbackRefused}`;
  if (loopback && port === policy.ownPort()) return `${address}:${port} is the service itself`;
  if (loopback && Array.isArray(policy.loopback) && !policy.loopback.includes(port)) {
    return `${address}:${port} is a loopback port the service was not allowed (--allow-loopback-port allows ${policy.loopback.join(', ')})`;
  }
  if (PRIVATE.check(ip, family) && !policy.private) {
    return `${address} is a private address (start the service with --allow-private-sources to allow it)`;
  }
  return undefined;
}

/** The policy of a service listening on `host` for its webhook deliveries: loopback while it listens there. */
export function egressPolicy(host: string, allowPrivate: boolean, ownPort: () => number): EgressPolicy {
  const listensOnLoopback =
    host === 'localhost' || (isIP(host) !== 0 && LOOPBACK.check(host, isIP(host) === 6 ? 'ipv6' : 'ipv4'));
  return {
    loopback: listensOnLoopback,
    loopbackRefused: 'the service does not listen on loopback',
    private: allowPrivate,
    ownPort,
  };
}

/**
 * The policy of topic searches and their images: loopback only as the operator allowed it
 * (`allowLoopbackSources`: any port but the service's own, or the ports listed).
 */
export function sourcePolicy(
  allowLoopback: boolean | readonly number[],
  allowPrivate: boolean,
  ownPort: () => number,
): EgressPolicy {
  return {
    loopback: allowLoopback,
    loopbackRefused:
      'start the service with --allow-loopback-sources (startService({ allowLoopbackSources: true })) to search a site on this machine',
    private: allowPrivate,
    ownPort,
  };
}

export interface GuardedInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/**
 * One HTTP request to `url` (http or https) under `policy`, without following redirects. Resolves
 * to the response (its body a stream) once the headers arrive; rejects with {@link EgressError}
 * when the address is refused or no connection could be made, and with the signal's reason when
 * it aborts (a time limit or the service closing).
 */
export function guardedFetch(url: URL, init: GuardedInit, policy: EgressPolicy): Promise<Response> {
  return new Promise((resolve, reject) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      reject(new EgressError(url.href, `${url.protocol} is not http or https`));
      return;
    }
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    // An IP address in the URL is connected to without a lookup: checked here, before anything.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    const literalRefused = isIP(literal) ? refusal(literal, port, policy) : undefined;
    if (literalRefused) {
      reject(new EgressError(url.href, literalRefused));
      return;
    }
    let refused: string | undefined;
    // The one lookup of this request: every address checked, the connection made to the first.
    const lookup: LookupFunction = (hostname, options, callback) => {
      const done = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
        if (error) return callback(error, '', 0);
        refused = addresses.map(({ address }) => refusal(address, port, policy)).find((why) => why !== undefined);
        if (refused) return callback(Object.assign(new Error(refused), { code: 'EREFUSED_BY_POLICY' }), '', 0);
        const first = addresses[0]!;
        if ((options as { all?: boolean }).all)
          return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, first.address, first.family);
      };
      dnsLookup(hostname, { all: true, verbatim: true }, done);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let connected = false;
    const req = send(url, {
      method: init.method ?? 'GET',
      headers: init.headers,
      lookup,
      signal: init.signal,
      // A fresh connection per request: a kept-alive socket would skip the lookup and its check.
      agent: false,
    });
    req.once('socket', (socket) => socket.once('connect', () => (connected = true)));
    req.once('error', (error: NodeJS.ErrnoException) => {
      // A time limit that ran out on a connected site is its slowness; before a connection, it is
      // as unreachable as a refused address or a closed port (a filtered port must not differ).
      if (init.signal.aborted && connected) reject(init.signal.reason);
      else {
        const why =
          refused ??
          (init.signal.aborted ? 'no connection within the time limit' : `${error.code ?? ''} ${error.message}`.trim());
        reject(new EgressError(url.href, why));
      }
    });
    req.once('response', (res: IncomingMessage) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
      }
      const status = res.statusCode ?? 502;
      const body =
        status === 204 || status === 304 || init.method === 'HEAD'
          ? null
          : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
      if (!body) res.resume();
      resolve(new Response(body, { status: status < 200 ? 502 : status, headers }));
    });
    req.end(init.body);
  });
}
