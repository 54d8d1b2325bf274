import { ConnectionError, deserializeError } from '../../errors.js';
export class ApiClient {
  constructor(partnerID) {
    this.partnerID = partnerID;
  }
  async request(method, path, body) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.session) headers.authorization = `Bearer ${this.session}`;
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (cause) {
      throw new ConnectionError(
        'connection_failed',
        `The video service could not be reached (${String(cause)}). Try again.`,
        {
          retryable: true,
        },
      );
    }
    if (response.status === 204) return undefined;
    const payload = await response.json().catch(() => ({}));
    if (!response.ok) {
      throw deserializeError(
        payload.error ?? { code: 'internal_error', message: `The service answered ${response.status}.` },
      );
    }
    return payload;
  }
  originAllowed(origin) {
    return this.request(
      'GET',
      `/api/partners/${encodeURIComponent(this.partnerID)}/origin-check?origin=${encodeURIComponent(origin)}`,
    );
  }
  createAccount(token) {
    return this.request('POST', '/api/accounts', { token, partnerID: this.partnerID });
  }
  login(token) {
    return this.request('POST', '/api/sessions', { token, partnerID: this.partnerID });
  }
  /** The UI's own sign-in (uncontrolled mode): by email address, creating the account if needed. */
  signInUncontrolled(emailAddress) {
    return this.request('POST', `/api/partners/${encodeURIComponent(this.partnerID)}/sign-in`, { emailAddress });
  }
  logout() {
    return this.request('DELETE', '/api/sessions/current');
  }
  account() {
    return this.request('GET', '/api/account').then((r) => r.account);
  }
  updateAccount(info) {
    return this.request('PATCH', '/api/account', info).then((r) => r.account);
  }
  videos() {
    return this.request('GET', '/api/videos').then((r) => r.videos);
  }
  video(id) {
    return this.request('GET', `/api/videos/${encodeURIComponent(id)}`).then((r) => r.video);
  }
  renameVideo(id, name) {
    return this.saveVideo(id, { name });
  }
  /** Saves the name and, with real media, the scenes (then the preview is rendered again). */
  saveVideo(id, changes) {
    return this.request('PATCH', `/api/videos/${encodeURIComponent(id)}`, changes).then((r) => r.video);
  }
  /** The video's storyboard for the editor (no scenes with placeholder media). */
  storyboard(id) {
    return this.request('GET', `/api/videos/${encodeURIComponent(id)}/storyboard`);
  }
  completeVideo(id) {
    return this.request('POST', `/api/videos/${encodeURIComponent(id)}/complete`).then((r) => r.video);
  }
  startTopicSearch(sourceURL) {
    return this.request('POST', '/api/topics', { sourceURL });
  }
  topic(id) {
    return this.request('GET', `/api/topics/${encodeURIComponent(id)}`).then((r) => r.topic);
  }
  startGeneration(params) {
    return this.request('POST', '/api/generations', params);
  }
  generation(requestId) {
    return this.request('GET', `/api/generations/${encodeURIComponent(requestId)}`).then((r) => r.generation);
  }
}
//# sourceMappingURL=client.js.map
