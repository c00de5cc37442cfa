// The Lambda context local mode hands the handlers: what the runtime's offers, usable the way middy uses it.
import { lambdaContext } from '../../lib/local/server';

it('counts down from 10 s, also when its method is called unbound (as middy calls it)', () => {
  jest.useFakeTimers({ now: new Date('2026-11-26T00:00:00Z') });
  const context = lambdaContext('Analyze');
  const remaining = context.getRemainingTimeInMillis;
  expect(remaining()).toBe(10_000);
  jest.advanceTimersByTime(2_500);
  expect(remaining()).toBe(7_500);
  jest.useRealTimers();
  expect(context).toMatchObject({
    functionName: 'Analyze',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:Analyze',
    logGroupName: '/aws/lambda/Analyze',
    memoryLimitInMB: '512',
  });
  expect(context.awsRequestId).not.toBe(lambdaContext('Analyze').awsRequestId);
});
