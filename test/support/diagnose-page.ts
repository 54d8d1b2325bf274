// Partner pages for diagnose(): real pages of the test server with the headers and meta tags a test
// asks for (test/harness/wtr/diagnose-plugin.mjs), framed same-origin by the test page; diagnose()
// runs in that page against the real local service. Used by diagnose.test.ts and session.test.ts.
import { expect } from '@open-wc/testing';
import type { Diagnosis, DiagnosisCheckID, DiagnosisStatus, DiagnoseTarget } from '../../src/diagnose/index.js';
import { testConfig } from './plugin.js';

export interface DiagnosePage {
  diagnose(target: string | DiagnoseTarget, options?: Record<string, unknown>): Promise<Diagnosis>;
  formatDiagnosis(diagnosis: Diagnosis): string;
  violations: string[];
}

interface ServedConfig {
  downServiceURL: string;
  /** The engine's configuration gives a cross-site frame no storage (test/harness/browsers.mjs, ENGINES). */
  storageBlocked: boolean;
}

const frames: HTMLIFrameElement[] = [];
/** Removes the partner pages opened so far (each suite's afterEach). */
export function removePartnerPages(): void {
  for (const frame of frames.splice(0)) frame.remove();
}

let served: Promise<ServedConfig> | undefined;
export const diagnoseConfig = (): Promise<ServedConfig> =>
  (served ??= fetch('/__diagnose/config').then((r) => r.json() as Promise<ServedConfig>));

/** The service the page must allow, and the origin of the dev server under its other name. */
export const serviceOrigin = async () => new URL((await testConfig()).serviceURL).origin;
export const otherSite = () => `http://127.0.0.1:${location.port}`;

/** Opens a partner page with these headers and meta tags; resolves to its window. */
export async function partnerPage(policies: Record<string, string> = {}): Promise<Window & DiagnosePage> {
  const url = new URL('/__diagnose/page.html', location.href);
  for (const [name, value] of Object.entries(policies)) url.searchParams.set(name, value);
  const frame = document.createElement('iframe');
  frame.title = 'Partner page';
  frames.push(frame);
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = url.href;
  document.body.append(frame);
  await loaded;
  const page = frame.contentWindow as Window & DiagnosePage;
  // The module script runs before load; a failure to load it would show here.
  expect(typeof page.diagnose, 'diagnose() on the partner page').to.equal('function');
  return page;
}

/** Runs diagnose() in `page` for the test partner on the test service (or as given). */
export async function run(
  page: DiagnosePage,
  target: string | DiagnoseTarget = {},
  options: Record<string, unknown> = {},
) {
  const { serviceURL } = await testConfig();
  const full = typeof target === 'string' ? target : { partnerID: 'test-partner', serviceURL, ...target };
  // Plain data of this realm: the result was made in the page's.
  const diagnosis = JSON.parse(JSON.stringify(await page.diagnose(full, options))) as Diagnosis;
  // Shown with the test's output when it fails.
  console.log(page.formatDiagnosis(diagnosis));
  return diagnosis;
}

export const check = (diagnosis: Diagnosis, id: DiagnosisCheckID) => {
  const found = diagnosis.checks.find((c) => c.id === id);
  expect(found, id).to.not.equal(undefined);
  return found!;
};
export const statuses = (diagnosis: Diagnosis) =>
  Object.fromEntries(diagnosis.checks.map((c) => [c.id, c.status])) as Record<DiagnosisCheckID, DiagnosisStatus>;

/** Whether this engine gives a cross-site frame no storage (test/harness/browsers.mjs). */
export const storageBlocked = async () => (await diagnoseConfig()).storageBlocked;
