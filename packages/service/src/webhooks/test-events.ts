/**
 * The made-up events of `POST /api/partner/webhooks/test`: one of each documented type, shaped
 * exactly as a real one (the same schema `verifyWebhook` checks), about an account and a video that
 * do not exist (`acct_test`, `vid_test`; the media URLs answer 404). The webhook kit marks them
 * `test: true`; they describe nothing that happened, so they never enter the event log.
 */
import { ASPECT_RATIOS, DURATIONS, type WebhookEventInput, type WebhookEventType } from 'video-plugin/internal';
import { MEDIA_FILES, videoMediaURL } from '../media/files.js';

/** The account and video the test events are about (they exist nowhere). */
export const TEST_EVENT_OWNER = { accountID: 'acct_test', externalID: 'test-user', videoID: 'vid_test' } as const;

/** A test event of `type` (without `id`, `createdAt` and the `test` mark, which the kit adds). */
export function testEventInput(type: WebhookEventType, baseURL: string): WebhookEventInput {
  const { accountID, externalID, videoID } = TEST_EVENT_OWNER;
  const owner = { accountID, externalID };
  const video = {
    videoID,
    name: 'Test video',
    aspectRatio: ASPECT_RATIOS[0],
    duration: DURATIONS[0],
    language: 'en',
  };
  switch (type) {
    case 'account.created':
      return {
        type,
        ...owner,
        data: { via: 'token', account: { firstName: 'Ada', lastName: 'Lovelace', emailAddress: 'ada@example.com' } },
      };
    case 'video.completed':
      return { type, ...owner, data: video };
    case 'video.rendered': {
      const media = videoMediaURL(baseURL, videoID);
      const file = (name: keyof typeof MEDIA_FILES) => ({ url: `${media}/${name}`, type: MEDIA_FILES[name].type });
      return {
        type,
        ...owner,
        data: {
          ...video,
          renders: [
            {
              format: 'mp4',
              url: `${media}/render.mp4`,
              renderedAt: new Date().toISOString(),
              files: {
                video: file('render.mp4'),
                poster: file('poster.jpg'),
                captions: { ...file('captions.vtt'), language: video.language },
                chapters: file('chapters.vtt'),
                transcript: file('transcript.txt'),
              },
              altText: `A ${video.duration}-second video: ${video.name}.`,
            },
          ],
        },
      };
    }
  }
}
