/**
 * The checks of a diagnosis: what was found on the page and from the service, turned into one
 * entry per check — its status, a message that says what it found and what to do, and the exact
 * text to add where there is one. Pure: no browser access here, so every sentence can be read in
 * one place.
 *
 * Over 500 lines, and one concern: the sentences of the diagnosis (docs/diagnose.md), kept
 * together so that they read alike; the page, CSP and service findings they start from are in
 * page.ts, csp.ts and service.ts.
 */
import { LOG_PREFIX } from '../debug.js';
import { deserializeError } from '../errors.js';
import { VERSION } from '../version.js';
import { PROTOCOL_VERSION } from '../wire/protocol.js';
import { describeSources, refusedAncestors, type Blocked, type FetchDirective } from './csp.js';
import type { PagePolicies } from './page.js';
import type { Probe, TrialResult } from './service.js';

/** How a check came out: `ok`, `warning` (works, but look at it) or `error` (the Plugin fails). */
export type DiagnosisStatus = 'ok' | 'warning' | 'error';

/** Every check, in the order a diagnosis reports them. */
export const CHECK_IDS = [
  'service',
  'partner',
  'origin',
  'frame-ancestors',
  'csp-frame-src',
  'csp-connect-src',
  'csp-img-src',
  'csp-media-src',
  'csp-script-src',
  'referrer-policy',
  'connection',
  'storage',
  'version',
  'debug',
] as const;
export type DiagnosisCheckID = (typeof CHECK_IDS)[number];

/** One check of a {@link Diagnosis}. */
export interface DiagnosisCheck {
  id: DiagnosisCheckID;
  status: DiagnosisStatus;
  /** What was found and, unless `ok`, what to do. */
  message: string;
  /** The exact text to add or run (a CSP directive, a flag, an option), where there is one. */
  fix?: string;
}

/** What `diagnose()` resolves to. */
export interface Diagnosis {
  /** The worst status of the checks. */
  status: DiagnosisStatus;
  partnerID: string;
  /** The service's base URL that was checked (`serviceURL`, or the environment's). */
  serviceURL: string;
  /** This page's origin. */
  pageOrigin: string;
  /** The SDK version of `video-plugin/diagnose` (and of the protocol it speaks). */
  sdkVersion: string;
  /** The service's version, when it said it. */
  serviceVersion: string | undefined;
  /** One entry per check, in the order of {@link CHECK_IDS}. */
  checks: DiagnosisCheck[];
  /** The lines `isDebug: true` would have printed for this page's handshake. */
  debugLog: string[];
  /** How long the diagnosis took, in milliseconds. */
  ms: number;
}

/** Everything the checks are made from. */
export interface Findings {
  partnerID: string;
  authMode: 'jwt' | 'uncontrolled';
  base: URL;
  pageOrigin: string;
  /** Whether this page's protocol is https (mixed content rules apply). */
  secure: boolean;
  page: PagePolicies;
  /** For each directive, the policies that block the service's URL (none: allowed). */
  blocked: Record<Exclude<FetchDirective, 'script-src'>, Blocked[]>;
  /** The CDN scripts of the page, each with the policies that block it. */
  scripts: { url: URL; blocked: Blocked[] }[];
  /** CSP violations the browser reported for the service's URLs while diagnosing. */
  violations: { directive: string; blockedURI: string }[];
  probe: Probe;
  trial: TrialResult;
  ancestors: { origins: string[]; unknown: boolean };
  /** Other copies of the SDK on the page. */
  sdkCopies: { where: string; version: string }[];
  /** Whether a `getLoginToken` was given (on the element diagnosed). */
  getLoginToken: boolean;
  /** `<video-plugin debug>` elements on the page. */
  debugElements: number;
}

const isLoopback = (url: URL): boolean =>
  url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);

/** Where a policy lives, as a partner would look for it. */
const where = (blocked: Blocked): string =>
  blocked.policy.from === 'header' ? 'Content-Security-Policy header' : '<meta http-equiv="Content-Security-Policy">';

function cspBlocks(blocked: Blocked[], origin: string): string {
  return blocked
    .map((b) => `Your ${where(b)} has ${b.decidedBy} ${describeSources(b.sources)}, which does not allow ${origin}`)
    .join('; and ');
}

const fixOf = (blocked: Blocked[]): string => [...new Set(blocked.map((b) => b.fix))].join('\n');

/** The status of a list of checks: the worst of them. */
export function worst(statuses: DiagnosisStatus[]): DiagnosisStatus {
  return statuses.includes('error') ? 'error' : statuses.includes('warning') ? 'warning' : 'ok';
}

/** The checks, in the order of {@link CHECK_IDS}. */
export function buildChecks(f: Findings): DiagnosisCheck[] {
  const service = f.base.origin;
  const local = isLoopback(f.base);
  const { trial } = f.trial;
  const answer = f.probe.kind === 'answered' ? f.probe.answer : undefined;
  const refusal = f.probe.kind === 'refused' ? f.probe.error : trial.kind === 'refused' ? trial.error : undefined;
  const partnerUnknown = refusal?.code === 'partner_not_found';
  const helloSeen = f.trial.hellos.length > 0;
  const allowedOriginsFix = local ? `--allowed-origin ${f.pageOrigin}` : f.pageOrigin;
  const allowedOriginsHow = local
    ? `start the local service with --allowed-origin ${f.pageOrigin}`
    : `ask the service to add ${f.pageOrigin} to partner "${f.partnerID}"'s allowed origins`;
  const notAsked = 'Not checked: the service could not be asked (see service and connection).';
  const checks: DiagnosisCheck[] = [];
  const add = (id: DiagnosisCheckID, status: DiagnosisStatus, message: string, fix?: string) =>
    checks.push(fix === undefined ? { id, status, message } : { id, status, message, fix });

  // ---- service: reachable, and not mixed content ----
  if (f.secure && f.base.protocol === 'http:' && !local) {
    add(
      'service',
      'error',
      `This https page cannot frame the http service ${service} (mixed content): the browser blocks it. Use the service's https URL.`,
      `serviceURL: '${service.replace(/^http:/, 'https:')}'`,
    );
  } else if (f.probe.kind === 'answered' || f.probe.kind === 'refused') {
    const version = answer ? `: ${answer.service} ${answer.version}, protocol ${answer.protocolVersion}` : '';
    add('service', 'ok', `The service at ${f.base.href} answered${version}.`);
  } else if (f.probe.kind === 'skipped') {
    if (trial.kind === 'connected') {
      add(
        'service',
        'ok',
        `The service at ${f.base.href} answered through its frame (your CSP's connect-src keeps diagnose() from asking it directly; see csp-connect-src).`,
      );
    } else {
      add(
        'service',
        'warning',
        `Not known: your CSP's connect-src keeps diagnose() from asking ${service} directly, and its frame did not connect (see connection).`,
      );
    }
  } else if (trial.kind === 'connected' || helloSeen) {
    add(
      'service',
      'warning',
      `The service's page loaded, but GET ${f.base.href}api/diagnose gave no readable answer (${f.probe.why}): a service from before that endpoint, or a proxy that drops its Access-Control-Allow-Origin header. The other checks rely on the frame alone.`,
    );
  } else {
    add(
      'service',
      'error',
      `No answer from ${f.base.href} (${f.probe.why}). Is the service running there, and is serviceURL (or environment) right? Every call would reject with a ConnectionError.`,
      local ? `npx video-plugin-service --port ${f.base.port || (f.base.protocol === 'https:' ? 443 : 80)}` : undefined,
    );
  }

  // ---- partner ----
  // Never a fix that names the partner ID given: it may be the typo (a service started with it would
  // refuse the back end's tokens). A local service names the partners it knows; a hosted one does not.
  const known = refusal?.data?.partners;
  if (partnerUnknown) {
    add(
      'partner',
      'error',
      `The service knows no partner "${f.partnerID}"${
        Array.isArray(known) && known.length > 0 ? `; it knows ${known.map((id) => `"${id}"`).join(', ')}` : ''
      }. Every call would reject with a NotFoundError (partner_not_found). ${
        local
          ? `Check partner-id (the Plugin's partnerID) and the iss of your tokens: they must be a partner the service was started with (--partner).`
          : "Check partner-id (the Plugin's partnerID) against the partner ID the service gave you, and the iss of your tokens."
      }`,
    );
  } else if (answer || trial.kind === 'connected') {
    add('partner', 'ok', `The service knows partner "${f.partnerID}".`);
  } else {
    add('partner', 'warning', notAsked);
  }

  // ---- origin: the partner's allow-list ----
  const refusedOrigin = trial.kind === 'refused' && trial.error.code === 'origin_not_allowed';
  if (f.pageOrigin === 'null') {
    add(
      'origin',
      'error',
      'This page has no origin of its own ("null": a sandboxed frame without allow-same-origin, or a data: or file: page), and no allow-list can name it. Serve the page over http(s), and give a sandboxed frame allow-same-origin:',
      'sandbox="allow-scripts allow-same-origin"',
    );
  } else if (partnerUnknown) {
    add('origin', 'warning', `Not checked: the service knows no partner "${f.partnerID}" (see partner).`);
  } else if (answer?.originAllowed === false || refusedOrigin) {
    add(
      'origin',
      'error',
      `The service does not allow this page's origin ${f.pageOrigin} for partner "${f.partnerID}": the studio would stay blank and every call reject with an OriginNotAllowedError (origin_not_allowed). To allow it, ${allowedOriginsHow}.`,
      allowedOriginsFix,
    );
  } else if (answer?.originAllowed === true || trial.kind === 'connected') {
    add('origin', 'ok', `This page's origin ${f.pageOrigin} is allowed for partner "${f.partnerID}".`);
  } else {
    add('origin', 'warning', notAsked);
  }

  // ---- frame-ancestors: the service page's header must let every page above the frame show it ----
  if (answer) {
    const sources = answer.frameAncestors;
    const refused = refusedAncestors(sources, [f.pageOrigin, ...f.ancestors.origins], service);
    const list = describeSources(sources);
    if (refused.length > 0) {
      const page =
        refused[0] === f.pageOrigin ? `this page's origin ${f.pageOrigin}` : `the page above it, ${refused[0]}`;
      add(
        'frame-ancestors',
        'error',
        `The service page may be framed only by ${list}, which does not include ${page}: the browser would show an empty frame. The service sends its partners' allowed origins there: to allow it, ${
          refused[0] === f.pageOrigin
            ? allowedOriginsHow
            : `have ${refused[0]} added to a partner's allowed origins (every page above the frame must be allowed)`
        }.`,
        local ? `--allowed-origin ${refused[0]}` : refused[0],
      );
    } else if (f.ancestors.unknown) {
      add(
        'frame-ancestors',
        'warning',
        `frame-ancestors ${list} allows this page, but this page is itself framed and the browser does not say by whom (Firefox has no location.ancestorOrigins): every page above the frame must be allowed too.`,
      );
    } else {
      const above = f.ancestors.origins.length;
      add(
        'frame-ancestors',
        'ok',
        `The service page's frame-ancestors ${list} allows this page${above ? ` and the ${above} page(s) above it` : ''}.`,
      );
    }
  } else if (helloSeen) {
    add('frame-ancestors', 'ok', 'The service page loaded inside this page, so its frame-ancestors allows it.');
  } else {
    add('frame-ancestors', 'warning', notAsked);
  }

  // ---- CSP of this page ----
  const noPolicy =
    f.page.csp.length === 0
      ? f.page.headers.read
        ? 'This page has no Content-Security-Policy'
        : `This page has no <meta> Content-Security-Policy (its headers could not be read: ${f.page.headers.why})`
      : undefined;
  const frameViolation = f.violations.find((v) => v.directive === 'frame-src' || v.directive === 'child-src');
  const frameBlocked = f.blocked['frame-src'];
  if (frameBlocked.length > 0) {
    add(
      'csp-frame-src',
      'error',
      `The page blocks the service frame. ${cspBlocks(frameBlocked, service)}. The studio could never load, and every call would reject with a FrameBlockedError (frame_blocked). Put this directive in place of it:`,
      fixOf(frameBlocked),
    );
  } else if (frameViolation) {
    add(
      'csp-frame-src',
      'error',
      `The browser blocked the service frame (${frameViolation.directive}) under a policy diagnose() could not read. Allow ${service} in frame-src:`,
      `frame-src ${service}`,
    );
  } else {
    add(
      'csp-frame-src',
      'ok',
      noPolicy ? `${noPolicy}: frames are allowed.` : `Your CSP allows the service frame (${service}).`,
    );
  }

  const optional: [DiagnosisCheckID, keyof Findings['blocked'], string][] = [
    [
      'csp-connect-src',
      'connect-src',
      "The SDK sends no request from your page (everything goes through the frame), so you need it only if your page fetches the service's URLs itself (e.g. downloads renders[].url); diagnose() asked through the frame instead.",
    ],
    ['csp-img-src', 'img-src', 'You need it only if your page shows thumbnailURL in an <img>.'],
    ['csp-media-src', 'media-src', 'You need it only if your page plays renders[].url in a <video>.'],
  ];
  for (const [id, directive, purpose] of optional) {
    const blocked = f.blocked[directive];
    if (blocked.length > 0) {
      add(id, 'warning', `${cspBlocks(blocked, service)}. ${purpose} If it does, use:`, fixOf(blocked));
    } else {
      add(id, 'ok', noPolicy ? `${noPolicy}: nothing to add.` : `Your CSP's ${directive} allows ${service}.`);
    }
  }

  const scriptsBlocked = f.scripts.filter((script) => script.blocked.length > 0);
  if (scriptsBlocked.length > 0) {
    const all = scriptsBlocked.flatMap((script) => script.blocked);
    add(
      'csp-script-src',
      'error',
      `The page loads the SDK from ${scriptsBlocked.map((s) => s.url.origin).join(', ')}. ${cspBlocks(all, scriptsBlocked[0]!.url.origin)}: the browser refuses the script. Use:`,
      fixOf(all),
    );
  } else if (f.scripts.length > 0) {
    add(
      'csp-script-src',
      'ok',
      `Your CSP allows the CDN script from ${f.scripts.map((s) => s.url.origin).join(', ')}.`,
    );
  } else {
    add(
      'csp-script-src',
      'ok',
      'The SDK is not loaded by a CDN <script> on this page: script-src needs nothing for it.',
    );
  }

  // ---- Referrer-Policy ----
  const { policy, from } = f.page.referrer;
  const set =
    from === 'default'
      ? 'the browser default'
      : `from your ${from === 'meta' ? '<meta name="referrer">' : 'Referrer-Policy header'}`;
  const seen =
    trial.kind === 'connected' && trial.frame
      ? ` (the frame saw document.referrer ${JSON.stringify(trial.frame.referrer)})`
      : '';
  // Some browsers trim a relaxed policy to the origin across sites (Firefox does): say what happened.
  const referred = trial.kind === 'connected' ? trial.frame?.referrer : undefined;
  const trimmed = referred !== undefined && (referred === '' || referred === `${f.pageOrigin}/`);
  if (policy === 'unsafe-url' || policy === 'no-referrer-when-downgrade') {
    add(
      'referrer-policy',
      'warning',
      `Referrer-Policy ${policy} (${set}) asks browsers to send the service your page's full URL — its path and query, with whatever they carry — with every frame load${
        trimmed ? ` (this browser sent only your origin${seen}; others may not trim it)` : seen
      }. The service needs none of it (the handshake gives it your origin). Send only the origin:`,
      from === 'meta'
        ? '<meta name="referrer" content="strict-origin-when-cross-origin">'
        : 'Referrer-Policy: strict-origin-when-cross-origin',
    );
  } else if (policy === 'no-referrer' || policy === 'same-origin') {
    add(
      'referrer-policy',
      'ok',
      `Referrer-Policy ${policy} (${set}): the service frame gets no Referer${seen}. Nothing depends on it: the handshake gives the service your origin, which the browser sets (postMessage's origin), and the origin checks use that.`,
    );
  } else {
    add(
      'referrer-policy',
      'ok',
      `Referrer-Policy ${policy} (${set}): the service frame gets your origin at most${seen}, and needs nothing more.`,
    );
  }

  // ---- connection: the real handshake ----
  const otherVersion = f.trial.hellos.find((hello) => hello.v !== PROTOCOL_VERSION);
  const otherOrigin = f.trial.hellos.find((hello) => hello.origin !== service);
  if (trial.kind === 'connected') {
    add(
      'connection',
      'ok',
      `The service frame connected in ${trial.ms} ms: the Plugin and <video-plugin> will work on this page. Your tokens are not checked here: one signed with another secret than the partner's is refused when it is used, with an InvalidTokenError (token_bad_signature).`,
    );
  } else if (trial.kind === 'skipped') {
    add('connection', 'error', 'Not tried: your CSP blocks the service frame (see csp-frame-src).');
  } else if (trial.kind === 'refused') {
    add(
      'connection',
      'error',
      `The service refused this page: ${trial.error.message}`,
      trial.error.code === 'origin_not_allowed' ? allowedOriginsFix : undefined,
    );
  } else {
    // The plugin page is framable by its own partner's origins only: a refused origin or an unknown
    // partner stops the frame at frame-ancestors, before any handshake, and the Plugin then names it
    // (OriginNotAllowedError, NotFoundError) from the service's answer.
    const failed = (id: string) => checks.find((c) => c.id === id && c.status === 'error');
    const unknownPartner = failed('partner');
    const refusedOrigin = !unknownPartner && failed('frame-ancestors') && failed('origin');
    const why = frameViolation
      ? 'the browser blocked the frame (see csp-frame-src)'
      : unknownPartner
        ? `the service knows no partner "${f.partnerID}" (see partner)`
        : refusedOrigin
          ? "the service's frame-ancestors refuses this page: this origin is not allowed for the partner (see origin)"
          : otherVersion
            ? `the service page speaks protocol ${String(otherVersion.v)}, this SDK ${PROTOCOL_VERSION} (see version)`
            : otherOrigin
              ? `the frame ended up on ${otherOrigin.origin}, not ${service}: does serviceURL redirect? Give the final URL`
              : checks.some((c) => c.id === 'frame-ancestors' && c.status === 'error')
                ? "the service's frame-ancestors refuses this page (see frame-ancestors)"
                : checks.some((c) => c.id === 'service' && c.status === 'error')
                  ? 'the service did not answer (see service)'
                  : f.probe.kind === 'skipped'
                    ? `${trial.error.message.replace(/\.$/, '')}, and your CSP's connect-src keeps diagnose() (and the Plugin) from asking the service why (see csp-connect-src): check the partner ID, and that the partner allows this page's origin`
                    : trial.error.message.replace(/\.$/, '');
    // The Plugin's own error where its question to the service named one (the trial asks it too).
    const named = trial.error.code === 'connection_failed' ? undefined : deserializeError(trial.error).name;
    const rejection = named
      ? `${/^[AEIOU]/.test(named) ? 'an' : 'a'} ${named}`
      : unknownPartner
        ? 'a NotFoundError'
        : refusedOrigin
          ? 'an OriginNotAllowedError'
          : 'a ConnectionError';
    add(
      'connection',
      'error',
      `The service frame did not connect: ${why}. The Plugin would reject every call with ${rejection}.`,
      refusedOrigin ? allowedOriginsFix : undefined,
    );
  }

  // ---- storage: can the frame keep its session across a reload? ----
  if (trial.kind === 'connected' && trial.frame) {
    if (trial.frame.storage) {
      add(
        'storage',
        'ok',
        'The service frame can keep its session in storage in this browser: a reload of the frame keeps the user signed in.',
      );
    } else if (f.getLoginToken) {
      add(
        'storage',
        'ok',
        'This browser gives the service frame no storage (third-party storage blocked), so a reload of the frame loses its session; your getLoginToken logs the account back in.',
      );
    } else {
      add(
        'storage',
        'warning',
        `This browser gives the service frame no storage (third-party storage blocked): a reload of the frame (a move without moveBefore, a navigation inside it) loses the session. ${
          f.authMode === 'jwt'
            ? 'Give the Plugin (or the element) getLoginToken, so that the SDK logs the same account back in; without it, listen for sessionLost:'
            : 'In uncontrolled mode the user signs in again inside the studio; sessionLost tells your page when.'
        }`,
        f.authMode === 'jwt' ? 'getLoginToken: (accountID) => fetchLoginTokenFromYourServer(accountID)' : undefined,
      );
    }
  } else if (trial.kind === 'connected') {
    add(
      'storage',
      'warning',
      `Not checked: the service page does not answer diagnose (${trial.frameError?.message ?? 'no answer'}): older than this SDK?`,
    );
  } else {
    add('storage', 'warning', 'Not checked: the service frame did not connect (see connection).');
  }

  // ---- version compatibility ----
  const frame = trial.kind === 'connected' ? trial.frame : undefined;
  const serviceVersion = answer?.version ?? frame?.version;
  const protocol = answer?.protocolVersion ?? frame?.protocolVersion ?? (otherVersion?.v as number | undefined);
  const copies = f.sdkCopies.filter((copy) => copy.version !== VERSION);
  if (protocol !== undefined && protocol !== PROTOCOL_VERSION) {
    const newer = protocol > PROTOCOL_VERSION;
    add(
      'version',
      'error',
      newer
        ? `The service${serviceVersion ? ` (${serviceVersion})` : ''} speaks protocol ${protocol}, this SDK (${VERSION}) protocol ${PROTOCOL_VERSION}: it refuses the handshake. Update video-plugin:`
        : `The service${serviceVersion ? ` (${serviceVersion})` : ''} speaks protocol ${protocol}, older than this SDK's (${VERSION}, protocol ${PROTOCOL_VERSION}): the handshake fails. ${local ? 'Update the local service:' : 'Use the SDK release that matches the service:'}`,
      newer
        ? 'npm install video-plugin@latest'
        : local
          ? 'npm install --save-dev video-plugin-service@latest'
          : serviceVersion
            ? `npm install video-plugin@~${serviceVersion}`
            : undefined,
    );
  } else if (serviceVersion !== undefined && newerMinor(VERSION, serviceVersion)) {
    add(
      'version',
      'warning',
      `This SDK (${VERSION}) is newer than the service (${serviceVersion}); both speak protocol ${PROTOCOL_VERSION}, but methods added since ${serviceVersion} are refused by it (bad_request).`,
      local ? `npm install --save-dev video-plugin-service@${VERSION}` : undefined,
    );
  } else if (copies.length > 0) {
    add(
      'version',
      'warning',
      `This page also runs video-plugin ${copies.map((copy) => `${copy.version} (${copy.where})`).join(', ')}, while this diagnosis is ${VERSION}: load one version, so that what runs is what was checked.`,
    );
  } else if (protocol !== undefined) {
    add(
      'version',
      'ok',
      `SDK ${VERSION} and service ${serviceVersion ?? '(version not said)'} both speak protocol ${PROTOCOL_VERSION}.`,
    );
  } else {
    add('version', 'warning', 'Not checked: the service did not say its version (see service and connection).');
  }

  // ---- debug: what isDebug would print ----
  const log = f.trial.debugLog;
  const shown = log.length
    ? ` For this page's handshake it would print ${log.length} line(s), the last: ${truncate(log[log.length - 1]!, 240)} (all of them: debugLog).`
    : ' diagnose() made no connection, so there is nothing it would print yet.';
  const intro = `With isDebug: true (the element's debug attribute) the SDK prints every message in and out, with the prefix ${LOG_PREFIX}, through console.debug — Chrome's DevTools shows those only at the Verbose level.`;
  if (f.debugElements > 0 && !(f.pageOrigin !== 'null' && isLoopback(new URL(f.pageOrigin)))) {
    add(
      'debug',
      'warning',
      `debug is on for ${f.debugElements} <video-plugin> on this page: every call goes to the console, tokens included. Turn it off in production: remove the debug attribute (data-debug in the markup).${shown}`,
    );
  } else {
    add('debug', 'ok', `${intro}${shown}`);
  }
  return checks;
}

/** Whether semver `a` has a higher major or minor than `b` (a patch adds no method). */
function newerMinor(a: string, b: string): boolean {
  const [am = 0, an = 0] = a.split('.').map(Number);
  const [bm = 0, bn = 0] = b.split('.').map(Number);
  return am > bm || (am === bm && an > bn);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
