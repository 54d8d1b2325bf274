/**
 * The `Host` allowlist, against DNS rebinding: a page on another site can make its own name resolve
 * to this machine, and its requests then reach the service with that name in `Host`. A name cannot
 * be rebound when it is an IP address or a loopback name (`localhost`, `*.localhost`), so those are
 * answered, and so are the names given with `--public-host` (`publicHosts`); any other `Host` gets
 * 403 on every route and on the socket upgrade. (Vite's `server.allowedHosts` is the same defence.)
 */
import { isIP } from 'node:net';

/** The name of a `Host` header: without its port, IPv6 brackets removed, lower case. */
export function hostName(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']') >>> 0);
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * Whether a request with this `Host` header is answered. No header at all (HTTP/1.0 tools) is:
 * browsers always send one, and a rebinding attack needs a browser.
 */
export function hostAllowed(header: string | undefined, publicHosts: readonly string[]): boolean {
  if (header === undefined) return true;
  const name = hostName(header);
  if (isIP(name) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return publicHosts.includes(name);
}

/** The message of a refused `Host`: what was refused, why, and how to allow it. */
export function hostRefusal(header: string): string {
  return (
    `The Host "${header}" is not one this service answers to: it answers IP addresses, localhost and the ` +
    `names given with --public-host (here: start it with --public-host ${hostName(header)}). ` +
    `This stops DNS rebinding.`
  );
}
