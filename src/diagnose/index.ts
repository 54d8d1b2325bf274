/**
 * video-plugin/diagnose: an integration doctor. Run on the partner's page, it checks what makes an
 * embed fail — the service and the partner ID, the origin allow-list, the service page's
 * `frame-ancestors`, the page's Content-Security-Policy, its Referrer-Policy, the frame's storage,
 * the versions — by asking the service and by connecting a hidden service frame exactly as the
 * `Plugin` does, and says for each what to do, with the exact text to add.
 *
 * Its own entry, so that pages that embed the studio never download it.
 * @packageDocumentation
 */
import { InvalidParameterError } from '../errors.js';
import { SERVICE_URLS } from '../options.js';
import { VERSION } from '../version.js';
import { buildChecks, worst, type Diagnosis, type Findings } from './checks.js';
import { blockedBy, refusedAncestors, type FetchDirective } from './csp.js';
import { ancestorOrigins, cdnScripts, loadedSdkVersions, readPagePolicies } from './page.js';
import { printDiagnosis } from './report.js';
import { probeService, tryHandshake, type Probe } from './service.js';

export { CHECK_IDS } from './checks.js';
export type { Diagnosis, DiagnosisCheck, DiagnosisCheckID, DiagnosisStatus } from './checks.js';
export { formatDiagnosis, printDiagnosis } from './report.js';
export { VERSION } from '../version.js';

/** What to diagnose, besides a partner ID: a `Plugin`, a `<video-plugin>`, or the same fields. */
export interface DiagnoseTarget {
  partnerID?: string | undefined;
  serviceURL?: string | undefined;
  environment?: 'prod' | 'demo' | undefined;
  authMode?: 'jwt' | 'uncontrolled' | undefined;
  /** A `<video-plugin>`'s `getLoginToken`: with it, a frame without storage is no warning. */
  getLoginToken?: unknown;
}

export interface DiagnoseOptions {
  /** The service to check; overrides `environment` (as the `Plugin` option). */
  serviceURL?: string;
  /** `prod` (default) or `demo`, when no `serviceURL` is given. */
  environment?: 'prod' | 'demo';
  /** The `authMode` your integration uses (default `jwt`): it shapes the storage advice. */
  authMode?: 'jwt' | 'uncontrolled';
  /** Limit for the whole diagnosis, in milliseconds (default 10000). */
  timeout?: number;
  /** Also print the result to the console: a table of the checks, the fixes, the debug lines. */
  print?: boolean;
}

/** Default limit of a diagnosis, in milliseconds. */
export const DEFAULT_DIAGNOSE_TIMEOUT = 10_000;
/**
 * How long a loaded service frame may stay silent before the diagnosis stops waiting for it, where
 * neither the service's answer nor the frame says why (the usual faults are named within a second).
 */
const AFTER_LOAD_MS = 3_000;

function invalid(field: string, message: string): InvalidParameterError {
  return new InvalidParameterError(`diagnose: ${field} ${message}`, { field });
}

/** The checked inputs: the partner, the service's base URL (with a trailing slash), the mode. */
function resolveSetup(target: string | DiagnoseTarget, options: DiagnoseOptions) {
  const from = typeof target === 'string' ? { partnerID: target } : (target ?? {});
  const partnerID = from.partnerID;
  if (typeof partnerID !== 'string' || partnerID.length < 1 || partnerID.length > 256) {
    throw invalid('partnerID', 'must be the partner ID the service gave you, a string of 1 to 256 characters.');
  }
  const environment = options.environment ?? from.environment ?? 'prod';
  if (environment !== 'prod' && environment !== 'demo')
    throw invalid('options.environment', 'must be "prod" or "demo".');
  const authMode = options.authMode ?? from.authMode ?? 'jwt';
  if (authMode !== 'jwt' && authMode !== 'uncontrolled') {
    throw invalid('options.authMode', 'must be "jwt" or "uncontrolled".');
  }
  const timeout = options.timeout ?? DEFAULT_DIAGNOSE_TIMEOUT;
  if (typeof timeout !== 'number' || !(timeout > 0) || timeout > 600_000) {
    throw invalid('options.timeout', 'must be a number of milliseconds, > 0 and <= 600000.');
  }
  let base: URL;
  try {
    base = new URL(options.serviceURL ?? from.serviceURL ?? SERVICE_URLS[environment]);
  } catch {
    throw invalid('options.serviceURL', 'must be an absolute http(s) URL.');
  }
  if (!/^https?:$/.test(base.protocol)) throw invalid('options.serviceURL', 'must be an absolute http(s) URL.');
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  base.search = '';
  base.hash = '';
  return { partnerID, authMode, timeout, base, getLoginToken: typeof from.getLoginToken === 'function' };
}

/**
 * Diagnoses this page's integration with the service: resolves to a {@link Diagnosis} with one
 * entry per check (never rejects for what it finds; only invalid arguments throw). Takes up to
 * `timeout` (10 s by default), usually well under a second; it loads a hidden service frame for
 * that time and removes it.
 *
 * @example
 * const report = await diagnose('your-partner-id', { print: true });
 * if (report.status === 'error') console.warn(report.checks.filter((c) => c.status === 'error'));
 * @example
 * await diagnose(document.querySelector('video-plugin'), { print: true }); // its partner, service, mode
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad argument.
 */
export async function diagnose(target: string | DiagnoseTarget, options: DiagnoseOptions = {}): Promise<Diagnosis> {
  const setup = resolveSetup(target, options);
  const { base, partnerID } = setup;
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), setup.timeout);
  const violations: Findings['violations'] = [];
  const onViolation = (event: SecurityPolicyViolationEvent): void => {
    if (event.blockedURI.startsWith(base.origin)) {
      violations.push({ directive: event.effectiveDirective, blockedURI: event.blockedURI });
    }
  };
  document.addEventListener('securitypolicyviolation', onViolation);
  try {
    const page = await readPagePolicies(controller.signal);
    const self = location.origin;
    const endpoint = new URL('./api/diagnose', base);
    endpoint.searchParams.set('partnerID', partnerID);
    // The URLs the page itself would load from the service: the frame, and (optional) its media.
    const urls: Record<keyof Findings['blocked'], URL> = {
      'frame-src': new URL('./plugin', base),
      'connect-src': endpoint,
      'img-src': new URL('./media/', base),
      'media-src': new URL('./media/', base),
    };
    const blocked = Object.fromEntries(
      Object.entries(urls).map(([directive, url]) => [
        directive,
        blockedBy(page.csp, directive as FetchDirective, url, self),
      ]),
    ) as Findings['blocked'];
    const scripts = cdnScripts().map((url) => ({ url, blocked: blockedBy(page.csp, 'script-src', url, self) }));
    // What the page's policy would block is not tried: a refused request is a violation report.
    const ask = blocked['connect-src'].length === 0;
    const probing: Promise<Probe> = ask
      ? probeService(endpoint, controller.signal)
      : Promise.resolve({ kind: 'skipped' });
    const ancestors = ancestorOrigins();
    // Where the service's answer says the browser stops the frame and the service does not explain
    // why (an origin it refuses it explains itself, to the trial's connection as to the Plugin).
    const stopped = probing.then(
      (probe) =>
        probe.kind === 'answered' &&
        probe.answer.originAllowed !== false &&
        refusedAncestors(probe.answer.frameAncestors, [self, ...ancestors.origins], base.origin).length > 0,
    );
    const [probe, trial] = await Promise.all([
      probing,
      blocked['frame-src'].length > 0
        ? { trial: { kind: 'skipped' as const }, hellos: [], debugLog: [] }
        : tryHandshake({
            base,
            partnerID,
            authMode: setup.authMode,
            timeout: setup.timeout,
            afterLoad: AFTER_LOAD_MS,
            explain: ask ? endpoint : undefined,
            stopped,
          }),
    ]);
    // A violation event is queued as a task: let it arrive.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const checks = buildChecks({
      partnerID,
      authMode: setup.authMode,
      base,
      pageOrigin: self,
      secure: location.protocol === 'https:',
      page,
      blocked,
      scripts,
      violations,
      probe,
      trial,
      ancestors,
      sdkCopies: loadedSdkVersions(),
      getLoginToken: setup.getLoginToken,
      debugElements: document.querySelectorAll('video-plugin[debug]').length,
    });
    const diagnosis: Diagnosis = {
      status: worst(checks.map((check) => check.status)),
      partnerID,
      serviceURL: base.href,
      pageOrigin: self,
      sdkVersion: VERSION,
      serviceVersion:
        probe.kind === 'answered'
          ? probe.answer.version
          : trial.trial.kind === 'connected'
            ? trial.trial.frame?.version
            : undefined,
      checks,
      debugLog: trial.debugLog,
      ms: Math.round(performance.now() - started),
    };
    if (options.print) printDiagnosis(diagnosis);
    return diagnosis;
  } finally {
    clearTimeout(timer);
    document.removeEventListener('securitypolicyviolation', onViolation);
  }
}
