// A second route: what the back end heard from the service (its verified webhooks). Going here
// unmounts the studio; the job it was following goes on, and the studio's route picks it up.
import { useEffect, useState } from 'react';
import { fetchWebhookEvents, type ReceivedEvent } from './api.js';

export function Activity() {
  const [events, setEvents] = useState<ReceivedEvent[]>();
  const load = () => {
    fetchWebhookEvents()
      .then(setEvents)
      .catch(() => setEvents([]));
  };
  useEffect(load, []);
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <p>The webhooks your back end received and verified, oldest first.</p>
      <button type="button" onClick={load}>
        Refresh
      </button>
      <ul aria-label="Webhooks">
        {events?.map((event) => (
          <li key={event.id}>
            <code>{event.type}</code> {event.videoID ?? event.externalID} (
            {new Date(event.createdAt).toLocaleTimeString()})
          </li>
        ))}
      </ul>
    </section>
  );
}
