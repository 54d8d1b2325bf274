// What the test knows that the page never does: the partner's secrets, and the service's HTTP API
// for its test controls and for counting a user's jobs (docs/service.md, "The HTTP API" and
// "Test controls").
import { SignJWT } from 'jose';
import { KIND_CLAIM, SERVICE_DOMAIN, loginAccountToken } from 'video-plugin/server';

export const ports = {
  app: Number(process.env.APP_PORT ?? 8349),
  service: Number(process.env.SERVICE_PORT ?? 8350),
  /** Vite's development server (`npm run dev`): React's development build, StrictMode active. */
  dev: Number(process.env.DEV_PORT ?? 8351),
};

export const partner = {
  id: 'starter-partner',
  secret: 'starter-partner-secret-change-me-0123456789',
  webhookSecret: 'starter-webhook-secret-change-me-0123456789',
  serviceURL: `http://127.0.0.1:${ports.service}`,
};

async function call(method: string, path: string, bearer: string | undefined, body?: unknown): Promise<unknown> {
  const response = await fetch(new URL(path, partner.serviceURL), {
    method,
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const answer = (await response.json()) as unknown;
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** The partner back end's credential for the test controls: an events token (webhook secret). */
function eventsToken(): Promise<string> {
  return new SignJWT({ [KIND_CLAIM]: 'events' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(crypto.randomUUID())
    .setIssuer(partner.id)
    .setAudience(SERVICE_DOMAIN)
    .setIssuedAt()
    .setExpirationTime('60s')
    .sign(new TextEncoder().encode(partner.webhookSecret));
}

/** Holds the user's next job of `job` at `stage` until {@link releaseJobs} (`--test-controls`). */
export async function holdNextJob(userID: string, job: 'topicSearch' | 'generation', stage: string): Promise<void> {
  await call('POST', '/api/test/outcomes', await eventsToken(), { job, account: userID, outcome: { stall: stage } });
}

/** Lets every held job go on (and forgets the holds not taken yet). */
export async function releaseJobs(): Promise<void> {
  await call('DELETE', '/api/test/outcomes', await eventsToken());
}

/** The user's topic searches and videos, as the service has them (a session of its own). */
export async function jobsOf(userID: string): Promise<{ topics: { status: string }[]; videos: { id: string }[] }> {
  const token = await loginAccountToken({ partnerID: partner.id, secret: partner.secret, externalID: userID });
  const { session } = (await call('POST', '/api/sessions', undefined, { token })) as { session: string };
  const { topics } = (await call('GET', '/api/topics', session)) as { topics: { status: string }[] };
  const { videos } = (await call('GET', '/api/videos', session)) as { videos: { id: string }[] };
  return { topics, videos };
}
