// An S3 server of the test's own: s3rver (npm), on a free loopback port, its objects in a temporary
// folder; stopped and removed after the test file. Its fixed credentials are put in the environment,
// where the service's S3 client (and any child service started after) reads them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface TestS3 {
  readonly endpoint: string;
  /** A client of the server, for the tests' own reads. */
  readonly client: S3Client;
  /** A new empty bucket; the service's `--media-store` URL for it. */
  bucket(name: string): Promise<string>;
  /** Stops the server (its connections cut), as an outage would; its objects are kept. */
  stop(): Promise<void>;
  /** Starts it again on the same port, with the same objects. */
  start(): Promise<void>;
}

export async function startS3(): Promise<TestS3> {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const directory = await mkdtemp(join(tmpdir(), 'video-plugin-s3-'));
  let server: S3rver | undefined;
  let port = 0;
  const start = async () => {
    server = new S3rver({ port, address: '127.0.0.1', silent: true, directory });
    ({ port } = await server.run());
  };
  const stop = async () => {
    const running = server;
    server = undefined;
    if (!running) return;
    const closed = running.close();
    // The services' clients keep their connections alive: end them, or close waits for their timeout.
    (running as unknown as { httpServer: { closeAllConnections(): void } }).httpServer.closeAllConnections();
    await closed;
  };
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  after(async () => {
    client.destroy();
    await stop();
    await rm(directory, { recursive: true, force: true, maxRetries: 5 });
  });
  return {
    endpoint,
    client,
    async bucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
      return `s3://${name}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1`;
    },
    stop,
    start,
  };
}
