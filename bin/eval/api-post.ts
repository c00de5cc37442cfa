// POST through local mode's HTTP API for the evals that teach and ask over a real socket (bin/eval-learning.ts,
// bin/eval/warm-api.ts): anything but a 200 stops the eval, since a figure measured past a failed request is wrong.
export function apiPoster(baseUrl: string, key: string) {
  return async (path: string, body: unknown): Promise<Record<string, unknown>> => {
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
