// Serves the Lambda bundles that `cdk synth` wrote (not the TypeScript sources) behind local mode's HTTP server, in a
// process of its own with a Lambda-like environment. Used by test/e2e/lambda-bundles.test.ts.
//   argv[2]: JSON { authorizer, fallback, routes: { [route id]: file } } of bundle files.
// Prints `listening <base URL>` once it serves; exits when its stdin closes, so it never outlives the test.
import { type Handlers, startLocalServer } from '../../lib/local/server';

type Handler = Handlers['authorizer'];

function loadBundle(file: string): Handler {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundle chosen at run time, loaded as Lambda's runtime loads it
  const handler = (require(file) as { handler?: Handler }).handler;
  if (typeof handler !== 'function') throw new Error(`${file} exports no handler`);
  return handler;
}

async function main(): Promise<void> {
  const files = JSON.parse(process.argv[2]) as { authorizer: string; fallback: string; routes: Record<string, string> };
  const handlers: Handlers = {
    authorizer: loadBundle(files.authorizer),
    fallback: loadBundle(files.fallback),
    routes: Object.fromEntries(Object.entries(files.routes).map(([id, file]) => [id, loadBundle(file)])),
  };
  const server = await startLocalServer({ port: 0, handlers });
  // Nothing to flush: the handlers answered before the test closed stdin.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
  process.stdout.write(`listening ${server.baseUrl}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
