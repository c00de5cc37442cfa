// The credentials the Lambda bundles sign with (lambdas/stores/lambda-credentials.ts): Lambda's environment only.
import { credentialsFromEnvironment, defaultProvider } from '../../lambdas/stores/lambda-credentials';

const LAMBDA_ENV = { AWS_ACCESS_KEY_ID: 'ASIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' };

it("reads the execution role's credentials as Lambda sets them", () => {
  expect(credentialsFromEnvironment(LAMBDA_ENV)).toEqual({
    accessKeyId: 'ASIAEXAMPLE',
    secretAccessKey: 'secret',
    sessionToken: 'token',
  });
});

it('reads the optional variables the SDK reads too', () => {
  const credentials = credentialsFromEnvironment({
    ...LAMBDA_ENV,
    AWS_CREDENTIAL_EXPIRATION: '2026-11-22T12:00:00Z',
    AWS_CREDENTIAL_SCOPE: 'us-east-1',
    AWS_ACCOUNT_ID: '123456789012',
  });
  expect(credentials.expiration?.toISOString()).toBe('2026-11-22T12:00:00.000Z');
  expect(credentials).toMatchObject({ credentialScope: 'us-east-1', accountId: '123456789012' });
});

it.each([
  ['no variables', {}],
  ['no secret', { AWS_ACCESS_KEY_ID: 'ASIAEXAMPLE' }],
  ['an empty key id', { ...LAMBDA_ENV, AWS_ACCESS_KEY_ID: '' }],
  ['a profile instead', { AWS_PROFILE: 'dev' }],
])('refuses %s, naming the variables it needs', (_case, env) => {
  expect(() => credentialsFromEnvironment(env)).toThrow(
    /^No AWS credentials in AWS_ACCESS_KEY_ID \/ AWS_SECRET_ACCESS_KEY\./,
  );
});

it('provides what the process environment holds when the SDK asks', async () => {
  const saved = { ...process.env };
  try {
    Object.assign(process.env, LAMBDA_ENV);
    await expect(defaultProvider()()).resolves.toMatchObject({ accessKeyId: 'ASIAEXAMPLE' });
    delete process.env.AWS_ACCESS_KEY_ID;
    await expect(defaultProvider()()).rejects.toThrow(/AWS_ACCESS_KEY_ID/);
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
});
