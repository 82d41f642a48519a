import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../../test/support/engines.js';
import { addChangeSource } from '../../../../test/support/observed-intake.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../../test/support/test-app.js';
import { SettableClock } from '../../../platform/clock.js';
import { NOT_STORED } from '../observed-types.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An EventBridge event from CloudTrail of our own: a management write by an assumed role. */
function cloudTrail(eventID: string, over: Record<string, unknown> = {}) {
  return {
    version: '0', id: `eb-${eventID}`, 'detail-type': 'AWS API Call via CloudTrail', source: 'aws.ssm', account: '111122223333', time: '2026-03-02T09:00:00Z', region: 'eu-west-1', resources: [],
    detail: {
      eventVersion: '1.09', eventID, eventTime: '2026-03-02T09:00:00Z', eventSource: 'ssm.amazonaws.com', eventName: 'PutParameter', awsRegion: 'eu-west-1',
      eventType: 'AwsApiCall', eventCategory: 'Management', managementEvent: true, readOnly: false, recipientAccountId: '111122223333',
      userIdentity: {
        type: 'AssumedRole', arn: 'arn:aws:sts::111122223333:assumed-role/deployer/ci-42', accountId: '111122223333', accessKeyId: 'ASIAEXAMPLE',
        sessionContext: { sessionIssuer: { type: 'Role', arn: 'arn:aws:iam::111122223333:role/deployer', userName: 'deployer' } },
      },
      requestParameters: { name: '/shop/db/password', type: 'SecureString', value: 'hunter2-plain', overwrite: true },
      ...over,
    },
  };
}

const T0 = new Date('2026-03-02T10:00:00.000Z');

describeEachEngine('the AWS and Azure intakes through the pipeline listener', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let aws: { id: string; secret: string };
  let azure: { id: string; secret: string };
  const post = (url: string, payload: unknown, secret: string) =>
    t.pipeline.inject({ method: 'POST', url, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` } });
  const rows = async (sourceId: string) => (await t.services.db.query<Json>('SELECT event_id, action, denied, params, diff, principal FROM observed_changes WHERE source_id = $1 ORDER BY event_id', [sourceId])).rows;

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock(T0) });
    owner = await signedInOwner(t, 'Cloud');
    aws = await addChangeSource(t, owner.org.id, 'aws', { config: { regions: ['eu-west-1'] } });
    azure = await addChangeSource(t, owner.org.id, 'azure');
  });
  afterAll(async () => t.close());

  it('records a CloudTrail write with the Parameter Store value never stored; the same event again is a duplicate', async () => {
    const r = await post(`/v1/changes/aws/${aws.id}`, cloudTrail('ct-1'), aws.secret);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ recorded: 1, duplicate: 0, denied: 0 });
    const [row] = await rows(aws.id);
    expect(row).toMatchObject({ event_id: 'ct-1', action: 'ssm.amazonaws.com:PutParameter', denied: false, principal: { kind: 'service', name: 'deployer/ci-42' } });
    expect(row!.params).toMatchObject({ name: '/shop/db/password', value: NOT_STORED });
    expect(JSON.stringify(row)).not.toContain('hunter2-plain');
    expect((await post(`/v1/changes/aws/${aws.id}`, cloudTrail('ct-1'), aws.secret)).json()).toMatchObject({ recorded: 0, duplicate: 1 });
  });

  it('records a refused call as a denied attempt, and leaves out a read', async () => {
    const r = await post(`/v1/changes/aws/${aws.id}`, [cloudTrail('ct-denied', { errorCode: 'AccessDenied', errorMessage: 'not authorized' }), cloudTrail('ct-read', { eventName: 'GetParameter', readOnly: true })], aws.secret);
    expect(r.statusCode, r.body).toBe(200);
    // A denied attempt is counted as denied, not as a recorded change (it still gets its row).
    expect(r.json()).toMatchObject({ recorded: 0, denied: 1, ignored: 1 });
    expect((await rows(aws.id)).map((x) => [x.event_id, x.denied])).toEqual([['ct-1', false], ['ct-denied', true]]);
  });

  it('a wrong secret is 401 and a malformed lone event is 400 naming the field; neither writes anything', async () => {
    const before = await rows(aws.id);
    expect((await post(`/v1/changes/aws/${aws.id}`, cloudTrail('ct-x'), 'not-the-secret')).statusCode).toBe(401);
    const bad = await post(`/v1/changes/aws/${aws.id}`, cloudTrail('ct-y', { eventID: undefined }), aws.secret);
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'detail.eventID' });
    expect(await rows(aws.id)).toEqual(before);
  });

  it('a write whose role session carries a planned change\'s id as its sourceIdentity becomes that change\'s receipt, not a row', async () => {
    const reg = await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title: 'rotate the checkout db password', components: [{ key: 'svc:checkout' }], startNow: true } });
    expect(reg.statusCode, reg.body).toBe(201);
    const change = (reg.json() as { change: { id: string; displayId: string } }).change;
    const identity = {
      type: 'AssumedRole', arn: 'arn:aws:sts::111122223333:assumed-role/deployer/ci-43', accountId: '111122223333',
      sessionContext: { sessionIssuer: { type: 'Role', arn: 'arn:aws:iam::111122223333:role/deployer', userName: 'deployer' }, sourceIdentity: change.displayId },
    };
    const r = await post(`/v1/changes/aws/${aws.id}`, cloudTrail('ct-receipt', { userIdentity: identity }), aws.secret);
    expect(r.json()).toMatchObject({ recorded: 0, receipts: 1 });
    const receipts = (await t.services.db.query<Json>('SELECT event_id, source FROM change_receipts WHERE change_id = $1', [change.id])).rows;
    expect(receipts).toEqual([{ event_id: 'ct-receipt', source: 'aws' }]);
    expect((await rows(aws.id)).map((x) => x.event_id)).not.toContain('ct-receipt');
  });

  it('an Azure operation makes one row from its phases; a 403 is a denied attempt', async () => {
    const base = { resourceId: '/subscriptions/1/resourceGroups/shop/providers/Microsoft.Compute/virtualMachines/vm1', operationName: 'Microsoft.Compute/virtualMachines/write', category: 'Administrative', correlationId: 'c-1', identity: { claims: { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn': 'alice@contoso.com' } } };
    const r = await post(`/v1/changes/azure/${azure.id}`, { records: [
      { ...base, time: '2026-03-02T09:00:00Z', resultType: 'Start' },
      { ...base, time: '2026-03-02T09:01:00Z', resultType: 'Success', resultSignature: 'Succeeded.OK' },
      { ...base, correlationId: 'c-2', time: '2026-03-02T09:02:00Z', operationName: 'Microsoft.Authorization/locks/delete', resultType: 'Failure', resultSignature: '403' },
    ] }, azure.secret);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ recorded: 1, denied: 1, noise: 1 });
    expect((await rows(azure.id)).map((x) => [x.action, x.denied]).sort()).toEqual([['Microsoft.Authorization/locks/delete', true], ['Microsoft.Compute/virtualMachines/write', false]]);
  });
});
