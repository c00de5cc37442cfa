// AuthRefusals (docs/deploy.md, Alarms: a dashboard metric by refusal code) counts keys refused, not a database
// that could not be read: that answer is a 503 counted once, in ServerErrors, beside the table alarms, so an outage
// does not read as a wave of bad keys. The database here is a closed port: a real connection refused, no mock.
import { createServer } from 'node:net';
import { apiEvents, inProcess } from '../../bin/bench/requests';
import { parseSettings } from '../../lambdas/contract/settings';
import { generateApiKey } from '../../lambdas/domain/api-key';
import { createService } from '../../lambdas/service';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** EMF lines a call writes to stdout, where Powertools Metrics writes them. */
async function emfOf(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.includes('"_aws"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

it('counts a database it could not read as a server error, not as a refused key', async () => {
  const service = createService(
    parseSettings({
      DYNAMODB_ENDPOINT: `http://127.0.0.1:${await closedPort()}`,
      POWERTOOLS_METRICS_DISABLED: 'false',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      DYNAMODB_REQUEST_TIMEOUT_MS: '200',
    }),
  );
  let status = 0;
  const emf = await emfOf(async () => {
    const events = apiEvents({
      key: generateApiKey('test'),
      method: 'GET',
      path: '/api/v1/decisions/dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S',
    });
    status = (await inProcess(service, events)).statusCode;
  });
  expect(status).toBe(503);
  const counted = emf.flatMap((m) =>
    ['AuthRefusals', 'ServerErrors'].filter((name) => name in m).map((name) => `${name} ${String(m.code)}`),
  );
  expect(counted).toEqual(['ServerErrors SERVICE_UNAVAILABLE']);
  service.dependencies.client.destroy();
});
