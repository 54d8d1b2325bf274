// A FAILED status update's error is typed: its code is one of the documented job failure codes
// (JobFailureCode), so a misspelt code fails the partner's type check instead of never matching.
// Compiled against dist/ by test/node/frameworks.test.ts.
import type { JobFailureCode, Plugin, StatusError, TopicSearchStatusUpdatePayload } from 'video-plugin';

export function watch(plugin: Plugin, topicId: string): void {
  plugin.subscribeToTopicSearchStatusUpdates(topicId, (update: TopicSearchStatusUpdatePayload) => {
    if (update.status !== 'FAILED') return;
    update.error satisfies StatusError | undefined;
    update.error?.code satisfies JobFailureCode | undefined;
    if (update.error?.code === 'source_unreachable') console.log('check the address');
    // @ts-expect-error -- not a job failure code (the documented one is source_unreachable)
    if (update.error?.code === 'site_unreachable') console.log('never');
  });
}

// @ts-expect-error -- a StatusError's code is one of the list, not any string
export const made: StatusError = { code: 'oops', message: 'made up' };
