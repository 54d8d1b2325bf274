// The page's calls to its own back end (server.mjs).

export interface Config {
  partnerID: string;
  serviceURL: string;
}

/** Stands in for your app's own signed-in user. */
export interface User {
  userID: string;
  name: string;
}

/** The partner ID and the service's URL: the back end signs the tokens with them. */
export async function fetchConfig(): Promise<Config> {
  return (await fetch('/api/config')).json() as Promise<Config>;
}

/** A "sign in or sign up" token for the user, from the back end. */
export async function fetchToken(user: User): Promise<string> {
  const response = await fetch('/api/video-plugin-token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (!response.ok) throw new Error(`The token endpoint answered ${response.status}.`);
  return ((await response.json()) as { token: string }).token;
}

export interface ReceivedEvent {
  id: string;
  type: string;
  createdAt: string;
  externalID?: string;
  videoID?: string;
}

/** The webhooks the back end received and verified. */
export async function fetchWebhookEvents(): Promise<ReceivedEvent[]> {
  return ((await (await fetch('/api/webhook-events')).json()) as { events: ReceivedEvent[] }).events;
}
