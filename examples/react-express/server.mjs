// The partner's back end, with Express 5: mints the studio's tokens with video-plugin/server (the
// partner secret never leaves this process), receives and verifies the service's webhooks, tells
// the page its partner ID and service URL, and serves the built page (dist/, from `npm run build`)
// with every route of the app answered by its index.html (the router reads the URL in the page).
//
//   PORT=3000 VIDEO_PLUGIN_PARTNER_ID=… VIDEO_PLUGIN_SECRET=… VIDEO_PLUGIN_WEBHOOK_SECRET=… \
//   VIDEO_PLUGIN_SERVICE_URL=… node server.mjs
import express from 'express';
import { fileURLToPath } from 'node:url';
import { loginOrCreateAccountToken, verifyWebhook, WebhookVerificationError } from 'video-plugin/server';

const port = Number(process.env.PORT ?? 3000);
// The partner ID and the two secrets the service gave you (here: those `npm run service` starts with).
const partnerID = process.env.VIDEO_PLUGIN_PARTNER_ID ?? 'starter-partner';
const secret = process.env.VIDEO_PLUGIN_SECRET ?? 'starter-partner-secret-change-me-0123456789';
const webhookSecret = process.env.VIDEO_PLUGIN_WEBHOOK_SECRET ?? 'starter-webhook-secret-change-me-0123456789';
// The hosted service, or the local one (`npm run service` listens on http://127.0.0.1:8001).
const serviceURL = process.env.VIDEO_PLUGIN_SERVICE_URL ?? 'http://127.0.0.1:8001';

const dist = fileURLToPath(new URL('dist/', import.meta.url));
const app = express();

app.get('/api/config', (_request, response) => {
  response.json({ partnerID, serviceURL });
});

// Sign in or sign up: one token that logs the user in to their studio account, or creates it on
// their first visit; the page redeems it with loginAccount(token), each time the studio is ready.
app.post('/api/video-plugin-token', express.json({ limit: '10kb' }), async (request, response) => {
  // A real app takes the user from its own session (after its own login) instead of the body:
  // whoever may call this endpoint can act as that user in the studio.
  const { userID, name } = request.body ?? {};
  if (typeof userID !== 'string' || !userID) return response.status(400).json({ error: 'userID is required' });
  const token = await loginOrCreateAccountToken({
    partnerID,
    secret,
    externalID: userID,
    ...(typeof name === 'string' && name ? { account: { firstName: name } } : {}),
  });
  response.json({ token });
});

// Webhooks: account.created, video.completed and video.rendered, each a JWT signed with the
// webhook secret. A real app keeps them in its database (a unique index on the event's ID); this
// one keeps them in memory, for the Activity page.
const events = new Map();
app.post('/api/webhooks', express.text({ type: 'application/jwt' }), async (request, response) => {
  let event;
  try {
    // The raw body, as text: verifyWebhook checks the signature over exactly these bytes.
    event = await verifyWebhook(request.body, { secret: webhookSecret, partnerID });
  } catch (error) {
    if (error instanceof WebhookVerificationError) return response.status(400).json(error.toJSON());
    throw error;
  }
  // The same event can come twice (a retry after a lost answer): its ID says so.
  if (!events.has(event.id)) events.set(event.id, event);
  response.sendStatus(204);
});

app.get('/api/webhook-events', (_request, response) => {
  response.json({
    events: [...events.values()].map(({ id, type, createdAt, externalID, data }) => ({
      id,
      type,
      createdAt,
      externalID,
      videoID: data.videoID,
    })),
  });
});

// The built page and its assets; every other GET is a route of the app (/, /activity…).
app.use(express.static(dist, { index: false }));
app.get('/{*path}', (request, response, next) => {
  if (request.path.startsWith('/api/')) return next();
  response.sendFile('index.html', { root: dist });
});

app.use((error, _request, response, _next) => {
  console.error(error);
  response.status(error.status ?? 500).json({ error: error.expose ? error.message : 'server error' });
});

app.listen(port, 'localhost', () => console.log(`starter app on http://localhost:${port}`));
