import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DATABASES, PNG, body, createTestApp, loggedIn, multipart, registerUser, type Client, type TestApp } from './helpers.ts';

describe.each(DATABASES)('users, profile and roles on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let erin: Client;
  let erinId: number;
  beforeAll(async () => {
    t = await createTestApp(kind, { seedDemo: true });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    erinId = (await registerUser(t.app, 'erin')).id;
    erin = await loggedIn(t.app, 'erin');
  });
  afterAll(() => t.close());

  describe('profile', () => {
    it('returns null for an anonymous caller and the spec fields for a user', async () => {
      expect(body(await t.app.inject({ method: 'GET', url: '/api/team/userinfo/' })).data).toBeNull();
      const me = body(await erin.get('/api/team/userinfo/')).data;
      for (const f of [
        'id',
        'userId',
        'faceImg',
        'area',
        'userName',
        'birthday',
        'sex',
        'education',
        'admissionDate',
        'atSchool',
        'organization',
        'department',
        'speciality',
        'grade',
        'studentIdCard',
        'province',
        'city',
        'address',
        'company',
        'position',
      ]) {
        expect(me).toHaveProperty(f);
      }
      expect(me.userId).toBe(erinId);
    });

    it('updates one’s own profile and validates every field', async () => {
      const res = await erin.put('/api/team/userinfo/', {
        userName: '艾琳',
        sex: 1,
        atSchool: true,
        birthday: '2004-02-29',
        province: '广东省',
        city: '广州市',
        phone: '+8613800138000',
      });
      expect(res.statusCode).toBe(200);
      expect(body(res).data).toMatchObject({ userName: '艾琳', sex: 1, atSchool: true, birthday: '2004-02-29', city: '广州市', phone: '+8613800138000' });
      for (const [payload, field] of [
        [{ sex: 2 }, 'sex'],
        [{ birthday: '2004-13-01' }, 'birthday'],
        [{ phone: '1380013800' }, 'phone'],
        [{ email: 'x@' }, 'email'],
        [{ userName: 'x'.repeat(51) }, 'userName'],
        [{ id: 99 }, 'id'],
      ] as const) {
        const bad = await erin.put('/api/team/userinfo/', payload);
        expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
        expect(Object.keys(body(bad).data.fields)).toContain(field);
      }
      expect(body(await erin.get('/api/team/userinfo/')).data.sex).toBe(1);
    });

    it('uploads an avatar image, checked by content, and sets it', async () => {
      const up = await erin.request({ method: 'POST', url: '/api/file/upload/avatar', ...multipart('头像.png', PNG) });
      expect(up.statusCode).toBe(200);
      const { fileUri } = body(up).data;
      expect((await erin.put('/api/team/userinfo/', { faceImg: fileUri })).statusCode).toBe(200);
      const img = await t.app.inject({ method: 'GET', url: `/api/file/common/download?fileUri=${encodeURIComponent(fileUri)}` });
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/png');
      expect(img.headers['content-disposition']).toContain("filename*=UTF-8''%E5%A4%B4%E5%83%8F.png");
      expect(img.rawPayload.equals(PNG)).toBe(true);
      const part = await t.app.inject({
        method: 'GET',
        url: `/api/file/common/download?fileUri=${encodeURIComponent(fileUri)}`,
        headers: { range: 'bytes=0-7' },
      });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.equals(PNG.subarray(0, 8))).toBe(true);
    });

    it('refuses a non-image avatar and another user’s file', async () => {
      const fake = await erin.request({ method: 'POST', url: '/api/file/upload/avatar', ...multipart('evil.png', Buffer.from('<script>alert(1)</script>')) });
      expect(fake.statusCode).toBe(415);
      expect(body(fake).message).toBe('只能上传PNG、JPEG、GIF或WEBP格式的图片');
      const adminUp = body(await admin.request({ method: 'POST', url: '/api/file/upload/avatar', ...multipart('a.png', PNG) })).data;
      const steal = await erin.put('/api/team/userinfo/', { faceImg: adminUp.fileUri });
      expect(steal.statusCode).toBe(400);
      expect(body(steal).data.fields.faceImg).toBe('图片无效，请重新上传');
    });

    it('refuses an avatar over the size limit', async () => {
      const big = Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(t.config.avatarMaxBytes + 10)]);
      const res = await erin.request({ method: 'POST', url: '/api/file/upload/avatar', ...multipart('big.png', big) });
      expect(res.statusCode).toBe(413);
    });
  });

  describe('permissions', () => {
    it('returns each caller’s permission codes', async () => {
      expect(body(await t.app.inject({ method: 'GET', url: '/api/team/userinfo/permission' })).data).toEqual([]);
      expect(body(await erin.get('/api/team/userinfo/permission')).data).toEqual(['bdrace:userCenter:menu']);
      const adminCodes = body(await admin.get('/api/team/userinfo/permission')).data;
      expect(adminCodes).toEqual(expect.arrayContaining(['bdrace:manager:menu', 'system:user:menu', 'competition:brand:menu', 'payment:custom:menu']));
      const judge = await loggedIn(t.app, 'judge', t.accounts.find((a) => a.username === 'judge')!.password);
      expect(body(await judge.get('/api/team/userinfo/permission')).data).toEqual(['bdrace:review:menu', 'bdrace:userCenter:menu']);
    });

    it('builds the accessible back-office route list from the codes', async () => {
      const forAdmin = body(await admin.get('/api/system/menu/routers')).data;
      expect(forAdmin.map((r: { path: string }) => r.path)).toEqual([
        '/index',
        '/partner',
        '/competition',
        '/register',
        '/financial',
        '/review',
        '/message',
        '/payment',
        '/system',
      ]);
      expect(forAdmin[8].children.map((r: { path: string }) => r.path)).toEqual([
        '/system/user',
        '/system/role',
        '/system/client',
        '/system/message',
        '/system/realname',
        '/system/school',
      ]);
      const forErin = body(await erin.get('/api/system/menu/routers')).data;
      expect(forErin.map((r: { path: string }) => r.path)).toEqual(['/index']);
    });
  });

  describe('user management', () => {
    it('searches users by name, status and role', async () => {
      const found = body(await admin.get('/api/team/userinfo/list?keyword=ERI')).data;
      expect(found.list.map((u: { username: string }) => u.username)).toEqual(['erin']);
      // A role and a holder of this test's own: the users other tests make, with whatever roles, change nothing here.
      const quinnId = (await registerUser(t.app, 'quinn')).id;
      const searched = body(await admin.post('/api/system/role', { code: 'usersSearched', name: '检索角色', permissions: ['bdrace:review:menu'] })).data
        .id as number;
      expect((await admin.put(`/api/system/user/${quinnId}/roles`, { roleIds: [searched] })).statusCode).toBe(200);
      const holders = body(await admin.get(`/api/team/userinfo/list?roleId=${searched}`)).data;
      expect(holders.list.map((u: { username: string }) => u.username)).toEqual(['quinn']);
      expect(body(await admin.get('/api/team/userinfo/list?keyword=%25')).data.total).toBe(0);
    });

    it('refuses user management to a participant', async () => {
      expect((await erin.get('/api/team/userinfo/list')).statusCode).toBe(403);
      expect((await erin.put(`/api/system/user/${erinId}/roles`, { roleIds: [1] })).statusCode).toBe(403);
      expect(body(await erin.get('/api/team/userinfo/permission')).data).not.toContain('bdrace:manager:menu');
    });

    it('assigns roles, which change the user’s codes at once, and records it in the audit log', async () => {
      // A user and a role of this test's own: erin and the seed roles, which other tests read, stay as they were.
      const hankId = (await registerUser(t.app, 'hank')).id;
      const hank = await loggedIn(t.app, 'hank');
      const reviewer = body(await admin.post('/api/system/role', { code: 'usersReviewer', name: '评审查看', permissions: ['bdrace:review:menu'] })).data
        .id as number;
      const roles = body(await admin.get('/api/system/role/options')).data as { id: number; code: string }[];
      const ids = [...roles.filter((r) => r.code === 'participant').map((r) => r.id), reviewer];
      expect((await admin.put(`/api/system/user/${hankId}/roles`, { roleIds: ids })).statusCode).toBe(200);
      expect(body(await hank.get('/api/team/userinfo/permission')).data).toContain('bdrace:review:menu');
      const audit = await t.database.db
        .selectFrom('auditLog')
        .selectAll()
        .where('action', '=', 'user.setRoles')
        .where('entityId', '=', String(hankId))
        .execute();
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0]!.afterJson!).roleIds).toEqual(ids);
      const bad = await admin.put(`/api/system/user/${hankId}/roles`, { roleIds: [9999] });
      expect(bad.statusCode).toBe(400);
      expect(body(await hank.get('/api/team/userinfo/permission')).data).toContain('bdrace:review:menu');
    });

    it('creates a user with a real name, an organisation and roles, who can log in at once (issue 33)', async () => {
      const orgs = body(await admin.get('/api/system/org/options')).data as { id: number; name: string }[];
      const roles = body(await admin.get('/api/system/role/options')).data as { id: number; code: string }[];
      const judgeRole = roles.find((r) => r.code === 'judge')!.id;
      const before = (await t.database.db.selectFrom('users').select('id').execute()).length;
      // What it names is checked first: nothing is made.
      const badOrg = await admin.post('/api/system/user', { username: 'madeByAdmin', password: 'Passw0rd9', orgId: 9999 });
      expect([badOrg.statusCode, body(badOrg).data.fields]).toEqual([400, { orgId: '所选组织不存在' }]);
      const badRole = await admin.post('/api/system/user', { username: 'madeByAdmin', password: 'Passw0rd9', roleIds: [9999] });
      expect([badRole.statusCode, body(badRole).data.fields]).toEqual([400, { roleIds: '所选角色不存在' }]);
      const weak = await admin.post('/api/system/user', { username: 'madeByAdmin', password: '123' });
      expect(weak.statusCode).toBe(400);
      expect((await t.database.db.selectFrom('users').select('id').execute()).length).toBe(before);

      const made = await admin.post('/api/system/user', {
        username: 'madeByAdmin',
        password: 'Passw0rd9',
        userName: '李评委',
        phone: '13900139000',
        orgId: orgs[0]!.id,
        roleIds: [judgeRole],
      });
      expect([made.statusCode, body(made).message]).toEqual([200, '用户已创建']);
      const who = await loggedIn(t.app, 'madeByAdmin', 'Passw0rd9');
      expect(body(await who.get('/api/team/userinfo/')).data).toMatchObject({
        username: 'madeByAdmin',
        userName: '李评委',
        phone: '13900139000',
        orgName: orgs[0]!.name,
      });
      expect(body(await who.get('/api/team/userinfo/permission')).data).toContain('bdrace:review:menu');
      expect((await t.database.db.selectFrom('auditLog').select('entityId').where('action', '=', 'user.create').execute()).map((r) => r.entityId)).toContain(
        String(body(made).data.id),
      );
      // The same name again, or one that looks like it, is refused on its field; a participant may not create users.
      const again = await admin.post('/api/system/user', { username: 'madebyadmin', password: 'Passw0rd9' });
      expect([again.statusCode, Object.keys(body(again).data.fields)]).toEqual([409, ['username']]);
      expect((await erin.post('/api/system/user', { username: 'erinMade', password: 'Passw0rd9' })).statusCode).toBe(403);
    });

    it('assigns an organisation', async () => {
      const ivyId = (await registerUser(t.app, 'ivy')).id;
      const ivy = await loggedIn(t.app, 'ivy');
      const orgs = body(await admin.get('/api/system/org/options')).data;
      expect(orgs.map((o: { name: string }) => o.name)).toContain('示例大学');
      expect((await admin.put(`/api/system/user/${ivyId}/org`, { orgId: orgs[0].id })).statusCode).toBe(200);
      expect(body(await ivy.get('/api/team/userinfo/')).data.orgName).toBe('示例大学');
      expect((await admin.put(`/api/system/user/${ivyId}/org`, { orgId: 9999 })).statusCode).toBe(400);
      expect((await admin.put(`/api/system/user/${ivyId}/org`, { orgId: null })).statusCode).toBe(200);
    });

    it('disables a user, which signs them out and blocks login, and enables them again', async () => {
      await registerUser(t.app, 'frank');
      const frank = await loggedIn(t.app, 'frank');
      const frankId = body(await frank.get('/api/team/userinfo/')).data.id;
      expect((await admin.put(`/api/system/user/${frankId}/status`, { status: 0 })).statusCode).toBe(200);
      expect(body(await frank.get('/api/team/userinfo/')).data).toBeNull();
      const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'frank', password: 'Passw0rd1' } });
      expect(login.statusCode).toBe(403);
      expect(body(login).message).toBe('账号已被停用，请联系管理员');
      expect((await admin.put(`/api/system/user/${frankId}/status`, { status: 1 })).statusCode).toBe(200);
      await loggedIn(t.app, 'frank');
    });

    it('resets a password, which signs the user out', async () => {
      await registerUser(t.app, 'gina');
      const gina = await loggedIn(t.app, 'gina');
      const id = body(await gina.get('/api/team/userinfo/')).data.id;
      expect((await admin.put(`/api/system/user/${id}/password`, { password: 'weak' })).statusCode).toBe(400);
      expect((await admin.put(`/api/system/user/${id}/password`, { password: 'NewPa55-word' })).statusCode).toBe(200);
      expect(body(await gina.get('/api/team/userinfo/')).data).toBeNull();
      await loggedIn(t.app, 'gina', 'NewPa55-word');
    });

    it('keeps an administrator from locking themselves out', async () => {
      const adminId = body(await admin.get('/api/team/userinfo/')).data.id;
      expect((await admin.put(`/api/system/user/${adminId}/status`, { status: 0 })).statusCode).toBe(400);
      expect((await admin.put(`/api/system/user/${adminId}/roles`, { roleIds: [] })).statusCode).toBe(400);
      expect(body(await admin.get('/api/team/userinfo/permission')).data).toContain('system:user:menu');
    });

    it('answers 404 for a user that does not exist', async () => {
      expect((await admin.get('/api/team/userinfo/99999')).statusCode).toBe(404);
      expect((await admin.put('/api/system/user/99999/status', { status: 1 })).statusCode).toBe(404);
    });
  });

  describe('roles', () => {
    it('lists the four seed roles with their codes', async () => {
      // Other tests add roles of their own; the seed roles are the built-in ones.
      const roles = body(await admin.get('/api/system/role/list')).data as { code: string; builtin: boolean }[];
      expect(roles.filter((r) => r.builtin).map((r) => r.code)).toEqual(['admin', 'organiser', 'judge', 'participant']);
      expect(roles.filter((r) => ['admin', 'organiser', 'judge', 'participant'].includes(r.code)).every((r) => r.builtin)).toBe(true);
    });

    it('creates a role, edits its codes and deletes it; built-in roles cannot be deleted', async () => {
      const created = await admin.post('/api/system/role', { code: 'finance', name: '财务', permissions: ['bdrace:manager:menu', 'order:order:menu'] });
      expect(created.statusCode).toBe(200);
      const id = body(created).data.id;
      expect((await admin.post('/api/system/role', { code: 'finance', name: '重复', permissions: [] })).statusCode).toBe(409);
      expect((await admin.post('/api/system/role', { code: 'x1', name: '未知', permissions: ['no:such:code'] })).statusCode).toBe(400);
      expect((await admin.put(`/api/system/role/${id}`, { name: '财务人员', permissions: ['order:order:menu'] })).statusCode).toBe(200);
      const role = body(await admin.get('/api/system/role/list')).data.find((r: { id: number }) => r.id === id);
      expect(role).toMatchObject({ name: '财务人员', permissions: ['order:order:menu'] });
      expect((await admin.delete(`/api/system/role/${id}`)).statusCode).toBe(200);
      const participant = body(await admin.get('/api/system/role/list')).data.find((r: { code: string }) => r.code === 'participant');
      const del = await admin.delete(`/api/system/role/${participant.id}`);
      expect(del.statusCode).toBe(409);
      expect(body(del).message).toBe('内置角色不能删除');
    });

    it('keeps every code on the administrator role', async () => {
      const adminRole = body(await admin.get('/api/system/role/list')).data.find((r: { code: string }) => r.code === 'admin');
      const res = await admin.put(`/api/system/role/${adminRole.id}`, { name: '平台管理员', permissions: ['bdrace:manager:menu'] });
      expect(res.statusCode).toBe(400);
    });

    it('shows real counts on the back-office home', async () => {
      const d = body(await admin.get('/api/system/dashboard')).data;
      expect(d.roles).toBeGreaterThanOrEqual(4);
      expect(d.organisations).toBe(1);
      const count = await t.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(d.users).toBe(Number(count.n));
    });
  });
});
