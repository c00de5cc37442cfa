// Local mode's HTTP API for the evals that teach and ask over a real socket (bin/eval-learning.ts, bin/eval/warm-api.ts,
// bin/eval/archive-api.ts): anything but a 200 stops the eval, since a figure measured past a failed request is wrong.
import { startScratch, type Scratch } from '../../lib/local/scratch';
import { startLocalServer } from '../../lib/local/server';

export type Post = (path: string, body: unknown) => Promise<Record<string, unknown>>;

export function apiPoster(baseUrl: string, key: string): Post {
  return async (path, body) => {
    const res = await fetch(baseUrl + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status !== 200) throw new Error(`${path} answered ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/**
 * A signal's `received_at` moved to the wall clock, keeping the wait it had at the in-process measure's `now`: the API
 * decides at the wall clock, and a wait of over 4 or 24 hours adds points (WAITING_OVER_4H, WAITING_OVER_24H).
 */
export function atWallClock(receivedAt: string | undefined, now: Date): string | undefined {
  return receivedAt === undefined
    ? undefined
    : new Date(Date.now() - (now.getTime() - Date.parse(receivedAt))).toISOString();
}

/** One local mode (DynamoDB Local, the real handlers over a socket) and a key for workspaces `ws_*`, for `use`. */
export async function withLocalApi<T>(use: (api: { scratch: Scratch; post: Post }) => Promise<T>): Promise<T> {
  const scratch = await startScratch({
    name: 'evw',
    partner: 'eval',
    workspaces: ['ws_*'],
    settings: { dynamodbRequestTimeoutMs: 4_000, logLevel: 'ERROR' },
  });
  const server = await startLocalServer({ port: 0, handlers: scratch.service });
  try {
    return await use({ scratch, post: apiPoster(server.baseUrl, await scratch.newKey()) });
  } finally {
    await server.close();
    await scratch.stop();
  }
}
