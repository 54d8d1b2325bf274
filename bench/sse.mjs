// The status stream's frames (`event: …` and `data: …` lines, a blank line after each), read from
// a fetch response's body: the benches' one parser (bench/render.mjs, bench/load.mjs).
/* global TextDecoder */

/**
 * Reads `body` (a `/api/events` response's) to its end and calls `onEvent(event, data)` for each
 * frame that has both, `data` parsed as JSON. Resolves when the stream ends or is aborted.
 */
export async function readEvents(body, onEvent) {
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event && data) onEvent(event, JSON.parse(data));
      }
    }
  } catch {
    // Closed (aborted by the bench, or by the service).
  }
}
