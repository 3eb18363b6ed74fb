import { REAL_NAME_CHECKS_PER_DAY, REAL_NAME_TEXT, mainlandCheckDigit, realNameRequiredText } from '@contest/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAliyun } from '../src/idcheck/aliyun.ts';
import { IdCheckError } from '../src/idcheck/provider.ts';
import { teamPeople } from '../src/modules/review/service.ts';
import {
  ADMIN_PASSWORD,
  Client,
  DATABASES,
  PNG,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  onlineCompetition,
  registerUser,
  type TestApp,
} from './helpers.ts';

/**
 * Issue 35, item 6 (实名认证): a 居民身份证 is checked through Aliyun 实人认证's own SDK against the simulator (which
 * checks its signature and keeps a register); other documents wait for the platform's review of their photo. One
 * document proves one account, whatever form its number is typed in (15 digits, a lower-case x) and whatever the
 * timing; competitions keep registering, downloading data and submitting for verified people; certificates print
 * the proved name.
 */
describe.each(DATABASES)('real names on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let seq = 0;
  const now = new Date('2026-03-20T02:00:00Z');
  const tag = kind === 'sqlite' ? 1 : 2;

  /** A valid 18-digit number born `birth` (yyyymmdd) with sequence code `order` (3 digits). */
  const idNumber = (birth: string, order: string) => {
    const first17 = `110105${birth}${order}`;
    return first17 + mainlandCheckDigit(first17);
  };
  /** A fresh number of this run: a different birth day per call, so no two tests share one. */
  const fresh = (order = '12' + String(tag)) => {
    seq++;
    return idNumber(`19${String(50 + (seq % 40)).padStart(2, '0')}0${1 + (seq % 9)}${String(10 + (seq % 18))}`, order);
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { IDCHECK_SIMULATOR: '1', REGISTER_MAX_PER_IP: '1000' } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, `rnorg${tag}`, `实名大学${tag}`);
  });
  afterAll(() => t.close());

  async function person(prefix = 'rn') {
    const username = `${prefix}${tag}x${++seq}`;
    const user = await registerUser(t.app, username);
    return { client: await loggedIn(t.app, username), username, id: user.id };
  }
  const verify = (who: Client, name: string, number: string, docType = 'idCard', fileUri?: string) =>
    who.post('/api/account/realname', { docType, name, number, ...(fileUri && { fileUri }) });
  async function verified(name = '韩梅梅') {
    const p = await person();
    const res = await verify(p.client, name, fresh());
    expect([res.statusCode, body(res).data?.state], res.body).toEqual([200, 'verified']);
    return p;
  }

  it('checks a 居民身份证 through Aliyun’s SDK against the simulator: match, mismatch, no record; the proved name is the profile’s', async () => {
    const a = await person();
    expect(body(await a.client.get('/api/account/realname')).data).toMatchObject({ state: 'none', autoCheck: true, checksLeft: REAL_NAME_CHECKS_PER_DAY });
    const ok = await verify(a.client, '李雷', fresh());
    expect([ok.statusCode, body(ok).message]).toEqual([200, '实名认证已通过']);
    expect(body(ok).data).toMatchObject({ state: 'verified', docType: 'idCard', name: '李雷', numberMask: expect.stringMatching(/^110\*+\d{3}[\dX]$/) });
    const me = body(await a.client.get('/api/team/userinfo/')).data;
    expect([me.realNameVerified, me.userName]).toEqual([true, '李雷']);
    // The proved name is not edited in the profile; the rest of it is.
    const rename = await a.client.put('/api/team/userinfo/', { userName: '李小雷' });
    expect([rename.statusCode, body(rename).data.fields.userName]).toEqual([400, '已完成实名认证，姓名不能修改']);
    expect((await a.client.put('/api/team/userinfo/', { userName: '李雷', city: '北京市' })).statusCode).toBe(200);
    // A verified account does not verify again.
    const again = await verify(a.client, '李雷', fresh());
    expect([again.statusCode, body(again).message]).toEqual([409, REAL_NAME_TEXT.already]);

    // The register holds the 998 numbers under 张三: another name disagrees; the 999 numbers are not in it.
    const b = await person();
    const mismatch = await verify(b.client, '李四', fresh('998'));
    expect([mismatch.statusCode, body(mismatch).message, body(mismatch).data.fields.name]).toEqual([400, REAL_NAME_TEXT.mismatch, REAL_NAME_TEXT.mismatch]);
    const none = await verify(b.client, '李四', fresh('999'));
    expect([none.statusCode, body(none).message]).toEqual([400, REAL_NAME_TEXT.noRecord]);
    expect(body(await b.client.get('/api/account/realname')).data).toMatchObject({
      state: 'none',
      reason: REAL_NAME_TEXT.noRecord,
      checksLeft: REAL_NAME_CHECKS_PER_DAY - 2,
    });
    expect(body(await b.client.get('/api/team/userinfo/')).data.realNameVerified).toBe(false);
    // Bad input changes nothing: a number with a wrong check digit, a name of digits.
    const bad = await verify(b.client, '李四', fresh().slice(0, 17) + 'Y');
    expect([bad.statusCode, body(bad).data.fields.number]).toEqual([400, '证件号码应为18位（或旧版15位）']);
    expect(body(await verify(b.client, '12', fresh())).data.fields.name).toBe('姓名只能包含汉字、字母、间隔号“·”和空格');

    // The simulator refuses a request not signed with its key, as Aliyun does.
    const sim = t.deps.idCheckSimulator!;
    const wrong = checkAliyun({ accessKeyId: sim.keys.accessKeyId, accessKeySecret: 'not-the-secret' }, '李雷', fresh(), await sim.endpoint());
    await expect(wrong).rejects.toBeInstanceOf(IdCheckError);
    await expect(wrong).rejects.toThrow(/SignatureDoesNotMatch/);
  });

  it('lets one document prove one account: its 15-digit and lower-case forms are the same number, and a race has one winner', async () => {
    // A number of the 1900s whose check character is X, so that it has a 15-digit form and a lower-case one.
    let order = 100;
    while (mainlandCheckDigit(`11010519${String(40 + tag)}0612${order}`) !== 'X') order++;
    const number = `11010519${String(40 + tag)}0612${order}X`;
    const short = `110105${String(40 + tag)}0612${order}`;
    const first = await person('first');
    expect(body(await verify(first.client, '王芳', number)).data.state).toBe('verified');
    for (const form of [number.toLowerCase(), short, ` ${number.slice(0, 6)} ${number.slice(6).toLowerCase()} `]) {
      const other = await person();
      const res = await verify(other.client, '王芳', form);
      expect([res.statusCode, body(res).message], form).toEqual([409, REAL_NAME_TEXT.taken]);
      // How to recover the first account, without naming it.
      expect(res.body).not.toContain(first.username);
      expect(body(await other.client.get('/api/account/realname')).data.state).toBe('none');
    }
    // The key is a keyed hash: the number itself is not kept in the clear.
    const rows = await t.database.db.selectFrom('realNameChecks').selectAll().where('userId', '=', first.id).execute();
    expect(JSON.stringify(rows)).not.toContain(number);

    // Two accounts sending one new number at the same moment: one is verified, the other told it is taken.
    const racers = [await person(), await person()];
    const contested = fresh();
    const answers = await Promise.all(racers.map((r) => verify(r.client, '赵敏', contested)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const states = await Promise.all(racers.map(async (r) => body(await r.client.get('/api/account/realname')).data.state));
    expect(states.sort()).toEqual(['none', 'verified']);

    // One account sending two numbers at once ends verified by one of them, never both.
    const twice = await person();
    const both = await Promise.all([verify(twice.client, '周芷若', fresh()), verify(twice.client, '周芷若', fresh())]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const held = await t.database.db.selectFrom('realNameChecks').select('state').where('userId', '=', twice.id).where('numberKey', 'is not', null).execute();
    expect(held).toEqual([{ state: 'verified' }]);
  });

  it('allows five provider checks a day per account (each costs money), then answers 429', async () => {
    const p = await person();
    for (let i = 0; i < REAL_NAME_CHECKS_PER_DAY; i++) expect((await verify(p.client, '钱七', fresh('998'))).statusCode).toBe(400);
    const over = await verify(p.client, '张三', fresh('998'));
    expect([over.statusCode, body(over).message]).toEqual([429, `今天的实名核验次数已用完（每天${REAL_NAME_CHECKS_PER_DAY}次），请明天再试`]);
    expect(body(await p.client.get('/api/account/realname')).data.checksLeft).toBe(0);
  });

  it('sends passports and 港澳台 documents to the platform’s review with their photo; the reviewer passes or refuses with a reason', async () => {
    const p = await person();
    const noPhoto = await verify(p.client, 'Tom Lee', 'E12345678', 'passport');
    expect([noPhoto.statusCode, body(noPhoto).data.fields.fileUri]).toEqual([400, REAL_NAME_TEXT.photo]);
    const upload = await p.client.request({ method: 'POST', url: '/api/file/upload/document?purpose=identity', ...multipart('护照.png', PNG) });
    expect(upload.statusCode, upload.body).toBe(200);
    const photo = body(upload).data.fileUri as string;
    // Someone else's photo is not this person's document.
    const stranger = await person();
    expect(body(await verify(stranger.client, 'Tom Lee', 'E12345678', 'passport', photo)).data.fields.fileUri).toBe('文件无效，请重新上传');

    const sent = await verify(p.client, 'Tom Lee', 'e1234 5678', 'passport', photo);
    expect([sent.statusCode, body(sent).message, body(sent).data.state]).toEqual([200, '已提交，平台将在1至3个工作日内审核', 'pending']);
    expect((await verify(p.client, 'Tom Lee', 'E12345678', 'passport', photo)).statusCode).toBe(409);
    // The same passport cannot be sent for review by another account meanwhile.
    const copy = await p.client.request({ method: 'POST', url: '/api/file/upload/document?purpose=identity', ...multipart('copy.png', PNG) });
    const other = await person();
    expect((await verify(other.client, 'Tom Lee', 'E12345678', 'passport', body(copy).data.fileUri)).statusCode).toBe(400);

    // Only the platform's reviewers see the queue and the document.
    expect((await org.get('/api/system/realname/list')).statusCode).toBe(403);
    const queue = body(await admin.get(`/api/system/realname/list?keyword=${p.username}`)).data;
    expect(queue.list).toEqual([
      expect.objectContaining({ username: p.username, docType: 'passport', name: 'Tom Lee', numberMask: 'E12**5678', state: 'pending' }),
    ]);
    const id = queue.list[0].id as number;
    expect((await org.get(`/api/system/realname/${id}`)).statusCode).toBe(403);
    const detail = body(await admin.get(`/api/system/realname/${id}`)).data;
    expect([detail.number, detail.fileUri, detail.fileMime]).toEqual(['E12345678', photo, 'image/png']);
    const look = await admin.get(`/api/file/common/download?fileUri=${encodeURIComponent(photo)}`);
    expect([look.statusCode, look.headers['cache-control']]).toEqual([200, 'private, no-store']);
    expect((await stranger.client.get(`/api/file/common/download?fileUri=${encodeURIComponent(photo)}`)).statusCode).toBe(404);

    const noReason = await admin.post(`/api/system/realname/${id}/audit`, { pass: false });
    expect(body(noReason).data.fields.reason).toBe('请填写不通过的原因');
    expect((await admin.post(`/api/system/realname/${id}/audit`, { pass: false, reason: '照片不清晰' })).statusCode).toBe(200);
    expect((await admin.post(`/api/system/realname/${id}/audit`, { pass: true })).statusCode).toBe(409);
    expect(body(await p.client.get('/api/account/realname')).data).toMatchObject({ state: 'rejected', reason: '照片不清晰' });
    const box = body(await p.client.get('/api/message/notice/page/1?page=1&limit=10')).data;
    expect(JSON.stringify(box)).toContain('实名认证未通过');

    // Refused, the passport is free again: sent anew, and passed.
    expect(body(await verify(p.client, 'Tom Lee', 'E12345678', 'passport', photo)).data.state).toBe('pending');
    const again = body(await admin.get(`/api/system/realname/list?keyword=${p.username}`)).data.list[0].id as number;
    expect((await admin.post(`/api/system/realname/${again}/audit`, { pass: true })).statusCode).toBe(200);
    expect(body(await p.client.get('/api/team/userinfo/')).data).toMatchObject({ realNameVerified: true, userName: 'Tom Lee' });
    const history = body(await admin.get(`/api/system/realname/list?state=all&keyword=${p.username}`)).data.list;
    expect(history.map((r: { state: string }) => r.state)).toEqual(['verified', 'rejected']);
    expect(history[0].decidedBy).toBe('admin');
  });

  it('keeps registering, the data and submitting for verified people where a competition says so, and prints proved names', async () => {
    const competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    const presetId = (code: string) => presets.find((p) => p.menuCode === code)!.id;
    const wrongMenu = await org.put(`/api/competition/preset/${presetId('COMP_INFO')}`, { enable: true, realName: true });
    expect(body(wrongMenu).data.fields.realName).toBe('只有报名、赛题与数据、提交作品和提交测试可以要求实名认证');
    const batch = await org.put(`/api/competition/preset/batch/${competitionId}`, {
      presets: {
        REG_SET: { enable: true, realName: true, fieldList: [{ label: '姓名', name: 'userName', otherParams: { required: true } }] },
        QUES_AND_DATA: { enable: true, realName: true },
        CHOICE_SET: { enable: true },
        SUBMIT_WORKS: { enable: true, realName: true },
      },
    });
    expect(batch.statusCode, batch.body).toBe(200);
    expect(
      body(batch)
        .data.filter((p: { realName: boolean }) => p.realName)
        .map((p: { menuCode: string }) => p.menuCode),
    ).toEqual(['REG_SET', 'QUES_AND_DATA', 'SUBMIT_WORKS']);

    // Registering.
    const unverified = await person();
    const refused = await unverified.client.post(`/api/team/register/${competitionId}`, { teamName: '未实名队', info: { userName: '某人' } });
    expect([refused.statusCode, body(refused).message]).toEqual([403, realNameRequiredText('REG_SET')]);
    const leader = await verified('队长甲');
    const reg = await leader.client.post(`/api/team/register/${competitionId}`, { teamName: `实名队${tag}`, info: { userName: '随便写的' } });
    expect(reg.statusCode, reg.body).toBe(200);
    const { teamId, registerId } = body(reg).data;
    // Joining, by invitation.
    expect((await leader.client.post('/api/team/member/invitation', { teamId, account: unverified.username })).statusCode).toBe(200);
    const join = await unverified.client.post(`/api/team/member/agree/${teamId}`, { info: { userName: '某人' } });
    expect([join.statusCode, body(join).message]).toEqual([403, realNameRequiredText('REG_SET')]);

    // The data: a question with a data file.
    const questionId = body(await org.post(`/api/competition/question/${competitionId}`, { title: '实名题' })).data.id as number;
    await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true });
    const data = Buffer.from('id,x\n1,2\n');
    const meta = { kind: 'data', questionId: String(questionId), filename: 'train.csv' };
    const created = await org.request({
      method: 'POST',
      url: '/api/review/works/upload',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': String(data.length),
        'upload-metadata': Object.entries(meta)
          .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
          .join(','),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const put = await org.request({
      method: 'PATCH',
      url: created.headers.location as string,
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: data,
    });
    expect(put.statusCode).toBe(204);
    const fileUri = body(await org.get(`/api/competition/question/check/${questionId}`)).data.files[0].fileUri as string;
    const url = `/api/file/common/download?fileUri=${encodeURIComponent(fileUri)}`;
    const anonymous = await new Client(t.app).get(url);
    expect([anonymous.statusCode, body(anonymous).message]).toEqual([403, `${realNameRequiredText('QUES_AND_DATA')}（请先登录）`]);
    const notYet = await unverified.client.get(url);
    expect([notYet.statusCode, body(notYet).message]).toEqual([403, realNameRequiredText('QUES_AND_DATA')]);
    const got = await leader.client.get(url);
    expect([got.statusCode, got.rawPayload.equals(data), got.headers['cache-control']]).toEqual([200, true, 'private, no-store']);
    expect((await org.get(url)).statusCode).toBe(200);

    // Submitting works: every member verified. The person refused before is verified now and joins.
    const joined = await verify(unverified.client, '某人', fresh());
    expect(body(joined).data.state).toBe('verified');
    expect((await unverified.client.post(`/api/team/member/agree/${teamId}`, { info: { userName: '某人' } })).statusCode).toBe(200);
    await org.post(`/api/team/register/flow/${registerId}`, { action: 'approve' });
    expect((await leader.client.put(`/api/team/choiceQuestion/${teamId}`, { questionId })).statusCode).toBe(200);
    expect(body(await leader.client.get(`/api/review/works/rules/${questionId}`)).data.refusal).toBeNull();
    // A member whose verification is withdrawn by the platform (a forged document found later) holds the team back.
    await t.database.db.updateTable('users').set({ verifiedName: null }).where('id', '=', unverified.id).execute();
    const rules = body(await leader.client.get(`/api/review/works/rules/${questionId}`)).data;
    expect(rules).toMatchObject({ open: false, refusal: '本竞赛要求全体队员完成实名认证后才能提交作品，未认证的队员：某人' });
    // Test files likewise, once 提交测试 asks for it: the tab says why, and a file is refused before it is stored.
    expect((await org.put(`/api/competition/preset/${presetId('SUBMIT_TEST')}`, { enable: true, realName: true })).statusCode).toBe(200);
    const testRefusal = '本竞赛要求全体队员完成实名认证后才能提交测试结果，未认证的队员：某人';
    expect(body(await leader.client.get(`/api/review/test/list/${questionId}`)).data.realNameRefusal).toBe(testRefusal);
    const sent = await leader.client.request({
      method: 'POST',
      url: `/api/review/test/${questionId}`,
      ...multipart('pred.csv', Buffer.from('id,y\n1,0\n'), 'text/csv'),
    });
    expect([sent.statusCode, body(sent).message]).toEqual([409, testRefusal]);
    await t.database.db.updateTable('users').set({ verifiedName: '某人' }).where('id', '=', unverified.id).execute();
    expect(body(await leader.client.get(`/api/review/test/list/${questionId}`)).data.realNameRefusal).toBeNull();

    // Certificates print the proved name, not what the form says.
    const people = await teamPeople(t.database.db, [teamId]);
    expect(people.get(teamId)!.members.map((m) => m.name)).toEqual(['队长甲', '某人']);
  });
});
