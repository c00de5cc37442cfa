import {
  DEFAULT_SETTINGS,
  ENV,
  lambdaEnvironment,
  parseLocalSettings,
  parseSettings,
  parseToolSettings,
} from '../../lambdas/contract/settings';
import { describeError } from '../../lambdas/observability';

describe('settings', () => {
  it('defaults every setting when the environment is empty', () => {
    expect(parseSettings({})).toEqual({ ...DEFAULT_SETTINGS, dynamodbEndpoint: undefined });
    expect(parseLocalSettings({})).toEqual({ port: 3000, dynamodbPort: 8000, dataDir: '.local-data' });
  });

  it('reads what the stack writes back into the same settings', () => {
    const settings = {
      ...DEFAULT_SETTINGS,
      accessTableName: 'a-t',
      decisionsTableName: 'd-t',
      learningTableName: 'l-t',
      authCacheTtlSeconds: 0,
      decisionRetentionDays: 7,
      logLevel: 'WARN' as const,
      traceSampleRate: 0.2,
      stage: 'production',
    };
    expect(parseSettings(lambdaEnvironment(settings))).toEqual({ ...settings, dynamodbEndpoint: undefined });
    // A share below 0.000001, which String() writes with an exponent the Lambdas refused at start.
    for (const traceSampleRate of [1e-7, 1.5e-7, 2.5e-12, 0.000001, 0])
      expect(parseSettings(lambdaEnvironment({ ...settings, traceSampleRate })).traceSampleRate).toBe(traceSampleRate);
  });

  it('refuses a bad number or log level with a message naming the variable', () => {
    expect(() => parseSettings({ [ENV.authCacheTtlSeconds]: '-1' })).toThrow(/AUTH_CACHE_TTL_SECONDS/);
    expect(() => parseSettings({ [ENV.decisionRetentionDays]: '1.5' })).toThrow(/DECISION_RETENTION_DAYS/);
    expect(() => parseSettings({ [ENV.logLevel]: 'LOUD' })).toThrow(/POWERTOOLS_LOG_LEVEL/);
    // SAS_STAGE is the admin CLI's --aws stage too: a value the stack would refuse stops no local start.
    expect(parseSettings({ [ENV.stage]: 'My_Stage' }).stage).toBe('My_Stage');
    // A table name DynamoDB refuses would fail every request: it stops the start, naming the variable.
    for (const [name, bad] of [
      [ENV.accessTableName, 'ab'],
      [ENV.decisionsTableName, 'bad/name'],
      [ENV.learningTableName, 'x y'],
    ])
      expect(() => parseSettings({ [name]: bad })).toThrow(new RegExp(`${name} must be a DynamoDB table name`));
    expect(parseSettings({ [ENV.decisionsTableName]: 'sas-prod_decisions.v2' }).decisionsTableName).toBe(
      'sas-prod_decisions.v2',
    );
    // The learning table is named after the decisions table unless set: both names must fit DynamoDB's 255.
    expect(() => parseSettings({ [ENV.decisionsTableName]: 'd'.repeat(250) })).toThrow(
      new RegExp(`${ENV.decisionsTableName} must be at most 246 characters unless ${ENV.learningTableName} is set`),
    );
    expect(
      parseSettings({ [ENV.decisionsTableName]: 'd'.repeat(250), [ENV.learningTableName]: 'sas-learning' })
        .learningTableName,
    ).toBe('sas-learning');
    expect(() => parseLocalSettings({ [ENV.port]: '70000' })).toThrow(/PORT/);
    // Local mode keeps the region with its data directory: another form would lock the directory at the next start.
    expect(() => parseSettings({ [ENV.region]: 'EU-West-1' })).toThrow(/AWS_REGION must be an AWS region/);
    expect(() => parseSettings({ [ENV.defaultRegion]: 'eu west' })).toThrow(/AWS_DEFAULT_REGION must be/);
    expect(parseSettings({ [ENV.region]: 'us-gov-west-1' }).region).toBe('us-gov-west-1');
    for (const bad of ['foo', 'udp:127.0.0.1:2000', '127.0.0.1:0', '127.0.0.1:70000'])
      expect(() => parseSettings({ [ENV.xrayDaemonAddress]: bad })).toThrow(
        /AWS_XRAY_DAEMON_ADDRESS must be host:port/,
      );
    expect(parseSettings({ [ENV.xrayDaemonAddress]: 'localhost:2000' }).xrayDaemonAddress).toBe('localhost:2000');
  });

  it('reads the share of requests traced as a number from 0 to 1, and refuses anything else', () => {
    expect(parseSettings({}).traceSampleRate).toBe(0.05);
    expect(parseSettings({ [ENV.traceSampleRate]: '0' }).traceSampleRate).toBe(0);
    expect(parseSettings({ [ENV.traceSampleRate]: '1' }).traceSampleRate).toBe(1);
    expect(parseSettings({ [ENV.traceSampleRate]: '.25' }).traceSampleRate).toBe(0.25);
    for (const bad of ['5%', '1.5', '-0.1', '1e-2', 'NaN', '0x1'])
      expect(() => parseSettings({ [ENV.traceSampleRate]: bad })).toThrow(/TRACE_SAMPLE_RATE/);
  });

  it('treats an empty variable as unset, and reads metrics as disabled only when told so', () => {
    expect(parseSettings({ [ENV.accessTableName]: '', [ENV.metricsDisabled]: 'false' })).toMatchObject({
      accessTableName: 'sas-access',
      metricsEnabled: true,
    });
    expect(parseSettings({ [ENV.metricsDisabled]: 'TRUE' }).metricsEnabled).toBe(false);
  });

  it('refuses a switch that is neither true nor false, as the README says, rather than reading it as false', () => {
    expect(parseSettings({ [ENV.tracingEnabled]: 'True' }).tracingEnabled).toBe(true);
    for (const name of [ENV.tracingEnabled, ENV.metricsDisabled])
      for (const bad of ['1', 'yes', 'on'])
        expect(() => parseSettings({ [name]: bad })).toThrow(new RegExp(`${name} must be true or false`));
  });
});

describe("the tools' settings", () => {
  it('finds the stage, its stack and the data where the README says, and takes what the environment names', () => {
    expect(parseToolSettings({})).toEqual({
      stage: 'dev',
      stackName: 'SignalAnalysisService-dev',
      accessTableName: undefined,
      decisionsTableName: undefined,
      dataDir: '../shared/data',
      languageSampleDir: '/tmp/sas-language-sample',
    });
    expect(parseToolSettings({ [ENV.stage]: 'prod' }).stackName).toBe('SignalAnalysisService-prod');
    expect(parseToolSettings({ [ENV.stage]: 'prod', [ENV.stackName]: 'Mine' }).stackName).toBe('Mine');
    expect(parseToolSettings({ [ENV.dataDir]: ' /data ', [ENV.accessTableName]: '' })).toMatchObject({
      dataDir: '/data',
      accessTableName: undefined,
    });
  });
});

describe('what a log may say about an error', () => {
  it('names the error and its stack frames, never its message, even one spanning lines', () => {
    const err = new TypeError('body had secret-text\n    at quoted (customer data)');
    const logged = describeError(err);
    expect(logged.name).toBe('TypeError');
    expect(logged.frames!.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toContain('secret-text');
    expect(JSON.stringify(logged)).not.toContain('customer data');
  });

  it("names a system error's code, which says what failed (the database refused the connection), and no other code", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });
    expect(describeError(refused)).toMatchObject({ name: 'Error', code: 'ECONNREFUSED' });
    expect(describeError(new Error('x', { cause: refused })).code).toBe('ECONNREFUSED');
    const data = Object.assign(new Error('x'), { code: 'customer text' });
    expect(describeError(data).code).toBeUndefined();
  });
});
