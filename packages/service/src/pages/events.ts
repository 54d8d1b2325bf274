/** What the studio tells the host: its events and its errors (its status updates' shape: payloads.ts). */
import { serializeError, type PluginEventName } from 'video-plugin/internal';
import { studio } from './state.js';

export function emit(name: PluginEventName, payload?: unknown): void {
  studio.log(`event ${name}`, payload);
  studio.endpoint.emit(name, payload);
}

export function reportError(error: unknown): void {
  emit('error', serializeError(error));
}
