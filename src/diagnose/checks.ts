/**
 * The checks of a diagnosis: what was found on the page and from the service, turned into one
 * entry per check — its status, a message that says what it found and what to do, and the exact
 * text to add where there is one. Pure: no browser access here, so every sentence can be read in
 * one place.
 *
 * A table, {@link CHECKS}: one small function per check id, from the facts gathered once to that
 * check's result. Over 500 lines, and one concern: the sentences of the diagnosis
 * (docs/diagnose.md), kept together so that they read alike; the page, CSP and service findings
 * they start from are in page.ts, csp.ts and service.ts.
 */
import { LOG_PREFIX } from '../debug.js';
import { deserializeError, type SerializedError } from '../errors.js';
import { VERSION } from '../version.js';
import { PROTOCOL_VERSION } from '../wire/protocol.js';
import { describeSources, refusedAncestors, type Blocked, type FetchDirective } from './csp.js';
import type { PagePolicies } from './page.js';
import type { Probe, ServiceAnswer, Trial, TrialResult } from './service.js';

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

/** What several checks read, worked out once from the {@link Findings}. */
export interface Facts extends Findings {
  /** The service's origin. */
  service: string;
  /** Whether the service is on loopback: then its fixes are the local service's flags. */
  local: boolean;
  /** How the hidden frame's handshake went. */
  handshake: Trial;
  /** The service's own answer to diagnose, when it gave one. */
  answer: ServiceAnswer | undefined;
  /** What the service refused, from its answer or from the handshake. */
  refusal: SerializedError | undefined;
  partnerUnknown: boolean;
  /** Whether the service frame said hello at all (in any version, from any origin). */
  helloSeen: boolean;
  /** A hello in another protocol version than this SDK's. */
  otherVersion: TrialResult['hellos'][number] | undefined;
  /** The fix, and the advice, that gets this page's origin allowed. */
  allowedOriginsFix: string;
  allowedOriginsHow: string;
  /** Why the page's CSP needs nothing, when it has none to read. */
  noPolicy: string | undefined;
  /** The browser's report of a blocked service frame. */
  frameViolation: Findings['violations'][number] | undefined;
}

/** A check's result, without its id. */
export type Outcome = Omit<DiagnosisCheck, 'id'>;

/** A check: its result from the facts, and (for a check that names another's) the checks before it. */
export type Check = (facts: Facts, earlier: readonly DiagnosisCheck[]) => Outcome;

const outcome =
  (status: DiagnosisStatus) =>
  (message: string, fix?: string): Outcome =>
    fix === undefined ? { status, message } : { status, message, fix };
const ok = outcome('ok');
const warning = outcome('warning');
const error = outcome('error');

const notAsked = 'Not checked: the service could not be asked (see service and connection).';

/** csp-connect-src, csp-img-src, csp-media-src: what the page may want of the service, never the SDK. */
const optional =
  (directive: 'connect-src' | 'img-src' | 'media-src', purpose: string): Check =>
  (f) =>
    f.blocked[directive].length > 0
      ? warning(
          `${cspBlocks(f.blocked[directive], f.service)}. ${purpose} If it does, use:`,
          fixOf(f.blocked[directive]),
        )
      : ok(f.noPolicy ? `${f.noPolicy}: nothing to add.` : `Your CSP's ${directive} allows ${f.service}.`);

/** Every check by its id, in the order of {@link CHECK_IDS}. */
export const CHECKS: { readonly [id in DiagnosisCheckID]: Check } = {
  /** Reachable, and not mixed content. */
  service(f) {
    if (f.secure && f.base.protocol === 'http:' && !f.local) {
      return error(
        `This https page cannot frame the http service ${f.service} (mixed content): the browser blocks it. Use the service's https URL.`,
        `serviceURL: '${f.service.replace(/^http:/, 'https:')}'`,
      );
    }
    if (f.probe.kind === 'answered' || f.probe.kind === 'refused') {
      const version = f.answer ? `: ${f.answer.service} ${f.answer.version}, protocol ${f.answer.protocolVersion}` : '';
      return ok(`The service at ${f.base.href} answered${version}.`);
    }
    if (f.probe.kind === 'skipped') {
      return f.handshake.kind === 'connected'
        ? ok(
            `The service at ${f.base.href} answered through its frame (your CSP's connect-src keeps diagnose() from asking it directly; see csp-connect-src).`,
          )
        : warning(
            `Not known: your CSP's connect-src keeps diagnose() from asking ${f.service} directly, and its frame did not connect (see connection).`,
          );
    }
    if (f.handshake.kind === 'connected' || f.helloSeen) {
      return warning(
        `The service's page loaded, but GET ${f.base.href}api/diagnose gave no readable answer (${f.probe.why}): a service from before that endpoint, or a proxy that drops its Access-Control-Allow-Origin header. The other checks rely on the frame alone.`,
      );
    }
    return error(
      `No answer from ${f.base.href} (${f.probe.why}). Is the service running there, and is serviceURL (or environment) right? Every call would reject with a ConnectionError.`,
      f.local
        ? `npx video-plugin-service --port ${f.base.port || (f.base.protocol === 'https:' ? 443 : 80)}`
        : undefined,
    );
  },

  // Never a fix that names the partner ID given: it may be the typo (a service started with it would
  // refuse the back end's tokens). A local service names the partners it knows; a hosted one does not.
  partner(f) {
    const known = f.refusal?.data?.partners;
    if (f.partnerUnknown) {
      return error(
        `The service knows no partner "${f.partnerID}"${
          Array.isArray(known) && known.length > 0 ? `; it knows ${known.map((id) => `"${id}"`).join(', ')}` : ''
        }. Every call would reject with a NotFoundError (partner_not_found). ${
          f.local
            ? `Check partner-id (the Plugin's partnerID) and the iss of your tokens: they must be a partner the service was started with (--partner).`
            : "Check partner-id (the Plugin's partnerID) against the partner ID the service gave you, and the iss of your tokens."
        }`,
      );
    }
    return f.answer || f.handshake.kind === 'connected'
      ? ok(`The service knows partner "${f.partnerID}".`)
      : warning(notAsked);
  },

  /** The partner's allow-list. */
  origin(f) {
    if (f.pageOrigin === 'null') {
      return error(
        'This page has no origin of its own ("null": a sandboxed frame without allow-same-origin, or a data: or file: page), and no allow-list can name it. Serve the page over http(s), and give a sandboxed frame allow-same-origin:',
        'sandbox="allow-scripts allow-same-origin"',
      );
    }
    if (f.partnerUnknown) return warning(`Not checked: the service knows no partner "${f.partnerID}" (see partner).`);
    if (
      f.answer?.originAllowed === false ||
      (f.handshake.kind === 'refused' && f.handshake.error.code === 'origin_not_allowed')
    ) {
      return error(
        `The service does not allow this page's origin ${f.pageOrigin} for partner "${f.partnerID}": the studio would stay blank and every call reject with an OriginNotAllowedError (origin_not_allowed). To allow it, ${f.allowedOriginsHow}.`,
        f.allowedOriginsFix,
      );
    }
    return f.answer?.originAllowed === true || f.handshake.kind === 'connected'
      ? ok(`This page's origin ${f.pageOrigin} is allowed for partner "${f.partnerID}".`)
      : warning(notAsked);
  },

  /** The service page's header must let every page above the frame show it. */
  'frame-ancestors'(f) {
    if (!f.answer) {
      return f.helloSeen
        ? ok('The service page loaded inside this page, so its frame-ancestors allows it.')
        : warning(notAsked);
    }
    const sources = f.answer.frameAncestors;
    const refused = refusedAncestors(sources, [f.pageOrigin, ...f.ancestors.origins], f.service);
    const list = describeSources(sources);
    if (refused.length > 0) {
      const page =
        refused[0] === f.pageOrigin ? `this page's origin ${f.pageOrigin}` : `the page above it, ${refused[0]}`;
      return error(
        `The service page may be framed only by ${list}, which does not include ${page}: the browser would show an empty frame. The service sends its partners' allowed origins there: to allow it, ${
          refused[0] === f.pageOrigin
            ? f.allowedOriginsHow
            : `have ${refused[0]} added to a partner's allowed origins (every page above the frame must be allowed)`
        }.`,
        f.local ? `--allowed-origin ${refused[0]}` : refused[0],
      );
    }
    if (f.ancestors.unknown) {
      return warning(
        `frame-ancestors ${list} allows this page, but this page is itself framed and the browser does not say by whom (Firefox has no location.ancestorOrigins): every page above the frame must be allowed too.`,
      );
    }
    const above = f.ancestors.origins.length;
    return ok(
      `The service page's frame-ancestors ${list} allows this page${above ? ` and the ${above} page(s) above it` : ''}.`,
    );
  },

  'csp-frame-src'(f) {
    const frameBlocked = f.blocked['frame-src'];
    if (frameBlocked.length > 0) {
      return error(
        `The page blocks the service frame. ${cspBlocks(frameBlocked, f.service)}. The studio could never load, and every call would reject with a FrameBlockedError (frame_blocked). Put this directive in place of it:`,
        fixOf(frameBlocked),
      );
    }
    if (f.frameViolation) {
      return error(
        `The browser blocked the service frame (${f.frameViolation.directive}) under a policy diagnose() could not read. Allow ${f.service} in frame-src:`,
        `frame-src ${f.service}`,
      );
    }
    return ok(f.noPolicy ? `${f.noPolicy}: frames are allowed.` : `Your CSP allows the service frame (${f.service}).`);
  },

  'csp-connect-src': optional(
    'connect-src',
    "The SDK sends no request from your page (everything goes through the frame), so you need it only if your page fetches the service's URLs itself (e.g. downloads renders[].url); diagnose() asked through the frame instead.",
  ),
  'csp-img-src': optional('img-src', 'You need it only if your page shows thumbnailURL in an <img>.'),
  'csp-media-src': optional('media-src', 'You need it only if your page plays renders[].url in a <video>.'),

  'csp-script-src'(f) {
    const scriptsBlocked = f.scripts.filter((script) => script.blocked.length > 0);
    if (scriptsBlocked.length > 0) {
      const all = scriptsBlocked.flatMap((script) => script.blocked);
      return error(
        `The page loads the SDK from ${scriptsBlocked.map((s) => s.url.origin).join(', ')}. ${cspBlocks(all, scriptsBlocked[0]!.url.origin)}: the browser refuses the script. Use:`,
        fixOf(all),
      );
    }
    return ok(
      f.scripts.length > 0
        ? `Your CSP allows the CDN script from ${f.scripts.map((s) => s.url.origin).join(', ')}.`
        : 'The SDK is not loaded by a CDN <script> on this page: script-src needs nothing for it.',
    );
  },

  'referrer-policy'(f) {
    const { policy, from } = f.page.referrer;
    const set =
      from === 'default'
        ? 'the browser default'
        : `from your ${from === 'meta' ? '<meta name="referrer">' : 'Referrer-Policy header'}`;
    const frame = f.handshake.kind === 'connected' ? f.handshake.frame : undefined;
    const seen = frame ? ` (the frame saw document.referrer ${JSON.stringify(frame.referrer)})` : '';
    // Some browsers trim a relaxed policy to the origin across sites (Firefox does): say what happened.
    const referred = frame?.referrer;
    const trimmed = referred !== undefined && (referred === '' || referred === `${f.pageOrigin}/`);
    if (policy === 'unsafe-url' || policy === 'no-referrer-when-downgrade') {
      return warning(
        `Referrer-Policy ${policy} (${set}) asks browsers to send the service your page's full URL — its path and query, with whatever they carry — with every frame load${
          trimmed ? ` (this browser sent only your origin${seen}; others may not trim it)` : seen
        }. The service needs none of it (the handshake gives it your origin). Send only the origin:`,
        from === 'meta'
          ? '<meta name="referrer" content="strict-origin-when-cross-origin">'
          : 'Referrer-Policy: strict-origin-when-cross-origin',
      );
    }
    return ok(
      policy === 'no-referrer' || policy === 'same-origin'
        ? `Referrer-Policy ${policy} (${set}): the service frame gets no Referer${seen}. Nothing depends on it: the handshake gives the service your origin, which the browser sets (postMessage's origin), and the origin checks use that.`
        : `Referrer-Policy ${policy} (${set}): the service frame gets your origin at most${seen}, and needs nothing more.`,
    );
  },

  /** The real handshake. */
  connection(f, earlier) {
    const { handshake: trial, allowedOriginsFix } = f;
    if (trial.kind === 'connected') {
      return ok(
        `The service frame connected in ${trial.ms} ms: the Plugin and <video-plugin> will work on this page. Your tokens are not checked here: one signed with another secret than the partner's is refused when it is used, with an InvalidTokenError (token_bad_signature).`,
      );
    }
    if (trial.kind === 'skipped') return error('Not tried: your CSP blocks the service frame (see csp-frame-src).');
    if (trial.kind === 'refused') {
      return error(
        `The service refused this page: ${trial.error.message}`,
        trial.error.code === 'origin_not_allowed' ? allowedOriginsFix : undefined,
      );
    }
    // The plugin page is framable by its own partner's origins only: a refused origin or an unknown
    // partner stops the frame at frame-ancestors, before any handshake, and the Plugin then names it
    // (OriginNotAllowedError, NotFoundError) from the service's answer.
    const { partnerID, service, otherVersion } = f;
    const failed = (id: DiagnosisCheckID) => earlier.some((c) => c.id === id && c.status === 'error');
    const otherOrigin = f.trial.hellos.find((hello) => hello.origin !== service);
    const unknownPartner = failed('partner');
    const refusedOrigin = !unknownPartner && failed('frame-ancestors') && failed('origin');
    const why = f.frameViolation
      ? 'the browser blocked the frame (see csp-frame-src)'
      : unknownPartner
        ? `the service knows no partner "${partnerID}" (see partner)`
        : refusedOrigin
          ? "the service's frame-ancestors refuses this page: this origin is not allowed for the partner (see origin)"
          : otherVersion
            ? `the service page speaks protocol ${String(otherVersion.v)}, this SDK ${PROTOCOL_VERSION} (see version)`
            : otherOrigin
              ? `the frame ended up on ${otherOrigin.origin}, not ${service}: does serviceURL redirect? Give the final URL`
              : failed('frame-ancestors')
                ? "the service's frame-ancestors refuses this page (see frame-ancestors)"
                : failed('service')
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
    return error(
      `The service frame did not connect: ${why}. The Plugin would reject every call with ${rejection}.`,
      refusedOrigin ? allowedOriginsFix : undefined,
    );
  },

  /** Can the frame keep its session across a reload? */
  storage(f) {
    if (f.handshake.kind !== 'connected') {
      return warning('Not checked: the service frame did not connect (see connection).');
    }
    if (!f.handshake.frame) {
      return warning(
        `Not checked: the service page does not answer diagnose (${f.handshake.frameError?.message ?? 'no answer'}): older than this SDK?`,
      );
    }
    if (f.handshake.frame.storage) {
      return ok(
        'The service frame can keep its session in storage in this browser: a reload of the frame keeps the user signed in.',
      );
    }
    if (f.getLoginToken) {
      return ok(
        'This browser gives the service frame no storage (third-party storage blocked), so a reload of the frame loses its session; your getLoginToken logs the account back in.',
      );
    }
    const jwt = f.authMode === 'jwt';
    return warning(
      `This browser gives the service frame no storage (third-party storage blocked): a reload of the frame (a move without moveBefore, a navigation inside it) loses the session. ${
        jwt
          ? 'Give the Plugin (or the element) getLoginToken, so that the SDK logs the same account back in; without it, listen for sessionLost:'
          : 'In uncontrolled mode the user signs in again inside the studio; sessionLost tells your page when.'
      }`,
      jwt ? 'getLoginToken: (accountID) => fetchLoginTokenFromYourServer(accountID)' : undefined,
    );
  },

  /** Compatibility of this SDK with the service, and with other copies on the page. */
  version(f) {
    const frame = f.handshake.kind === 'connected' ? f.handshake.frame : undefined;
    const serviceVersion = f.answer?.version ?? frame?.version;
    const protocol = f.answer?.protocolVersion ?? frame?.protocolVersion ?? (f.otherVersion?.v as number | undefined);
    const copies = f.sdkCopies.filter((copy) => copy.version !== VERSION);
    if (protocol !== undefined && protocol !== PROTOCOL_VERSION) {
      const newer = protocol > PROTOCOL_VERSION;
      return error(
        newer
          ? `The service${serviceVersion ? ` (${serviceVersion})` : ''} speaks protocol ${protocol}, this SDK (${VERSION}) protocol ${PROTOCOL_VERSION}: it refuses the handshake. Update video-plugin:`
          : `The service${serviceVersion ? ` (${serviceVersion})` : ''} speaks protocol ${protocol}, older than this SDK's (${VERSION}, protocol ${PROTOCOL_VERSION}): the handshake fails. ${f.local ? 'Update the local service:' : 'Use the SDK release that matches the service:'}`,
        newer
          ? 'npm install video-plugin@latest'
          : f.local
            ? 'npm install --save-dev video-plugin-service@latest'
            : serviceVersion
              ? `npm install video-plugin@~${serviceVersion}`
              : undefined,
      );
    }
    if (serviceVersion !== undefined && newerMinor(VERSION, serviceVersion)) {
      return warning(
        `This SDK (${VERSION}) is newer than the service (${serviceVersion}); both speak protocol ${PROTOCOL_VERSION}, but methods added since ${serviceVersion} are refused by it (bad_request).`,
        f.local ? `npm install --save-dev video-plugin-service@${VERSION}` : undefined,
      );
    }
    if (copies.length > 0) {
      return warning(
        `This page also runs video-plugin ${copies.map((copy) => `${copy.version} (${copy.where})`).join(', ')}, while this diagnosis is ${VERSION}: load one version, so that what runs is what was checked.`,
      );
    }
    return protocol !== undefined
      ? ok(
          `SDK ${VERSION} and service ${serviceVersion ?? '(version not said)'} both speak protocol ${PROTOCOL_VERSION}.`,
        )
      : warning('Not checked: the service did not say its version (see service and connection).');
  },

  /** What isDebug would print. */
  debug(f) {
    const log = f.trial.debugLog;
    const shown = log.length
      ? ` For this page's handshake it would print ${log.length} line(s), the last: ${truncate(log[log.length - 1]!, 240)} (all of them: debugLog).`
      : ' diagnose() made no connection, so there is nothing it would print yet.';
    return f.debugElements > 0 && !(f.pageOrigin !== 'null' && isLoopback(new URL(f.pageOrigin)))
      ? warning(
          `debug is on for ${f.debugElements} <video-plugin> on this page: every call goes to the console, tokens included. Turn it off in production: remove the debug attribute (data-debug in the markup).${shown}`,
        )
      : ok(
          `With isDebug: true (the element's debug attribute) the SDK prints every message in and out, with the prefix ${LOG_PREFIX}, through console.debug — Chrome's DevTools shows those only at the Verbose level.${shown}`,
        );
  },
};

/** The facts several checks share, from the findings. */
function factsOf(f: Findings): Facts {
  const local = isLoopback(f.base);
  const handshake = f.trial.trial;
  const refusal =
    f.probe.kind === 'refused' ? f.probe.error : handshake.kind === 'refused' ? handshake.error : undefined;
  return {
    ...f,
    service: f.base.origin,
    local,
    handshake,
    answer: f.probe.kind === 'answered' ? f.probe.answer : undefined,
    refusal,
    partnerUnknown: refusal?.code === 'partner_not_found',
    helloSeen: f.trial.hellos.length > 0,
    otherVersion: f.trial.hellos.find((hello) => hello.v !== PROTOCOL_VERSION),
    allowedOriginsFix: local ? `--allowed-origin ${f.pageOrigin}` : f.pageOrigin,
    allowedOriginsHow: local
      ? `start the local service with --allowed-origin ${f.pageOrigin}`
      : `ask the service to add ${f.pageOrigin} to partner "${f.partnerID}"'s allowed origins`,
    noPolicy:
      f.page.csp.length === 0
        ? f.page.headers.read
          ? 'This page has no Content-Security-Policy'
          : `This page has no <meta> Content-Security-Policy (its headers could not be read: ${f.page.headers.why})`
        : undefined,
    frameViolation: f.violations.find((v) => v.directive === 'frame-src' || v.directive === 'child-src'),
  };
}

/** The checks, in the order of {@link CHECK_IDS}: each entry of {@link CHECKS} on the same facts. */
export function buildChecks(findings: Findings): DiagnosisCheck[] {
  const facts = factsOf(findings);
  const checks: DiagnosisCheck[] = [];
  for (const id of CHECK_IDS) checks.push({ id, ...CHECKS[id](facts, checks) });
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
