import { HttpClient, REG_INFO, createUpload, patchUpload, png, seeded, sha256 } from './server.ts';

/**
 * A write load through HTTP: registrations, team registrations for the competition, profile edits, avatar uploads
 * and works uploads (tus, two PATCHes).
 * Each worker writes as its own team leader, so that the writes of one worker never race those of another; what
 * the server acknowledged (2xx) is recorded with the order it was acknowledged in.
 */
export interface Acked {
  seq: number;
  kind: 'register' | 'team' | 'profile' | 'avatar' | 'works';
  username: string;
  /** register: the password; team: `registerId:teamId`; profile: the organisation written; avatar: the key; works: the team id. */
  value: string;
  sha256?: string;
  size?: number;
}

export interface LoadWorker {
  leader: HttpClient;
  username: string;
  teamId: number;
}

export interface Load {
  acked: Acked[];
  /** Profile values each leader sent, in order, acknowledged or not. */
  profileSent: Map<string, string[]>;
  /** Answers that were neither 2xx nor a dropped connection. */
  refused: { status: number; message: string }[];
  errors: number;
  stop(): Promise<void>;
}

export function startLoad(base: () => string, workers: LoadWorker[], target: { competitionId: number; questionId: number }, seed: number, tag: string): Load {
  const { competitionId, questionId } = target;
  const rand = seeded(seed);
  const acked: Acked[] = [];
  const refused: Load['refused'] = [];
  const profileSent = new Map<string, string[]>();
  let seq = 0;
  let running = true;
  let errors = 0;
  let n = 0;

  const ack = (a: Omit<Acked, 'seq'>) => acked.push({ ...a, seq: seq++ });
  const refuse = (status: number, text: string, body: { message?: string } | null) => refused.push({ status, message: body?.message ?? text });

  async function step(w: LoadWorker) {
    const pick = rand.next();
    const i = n++;
    w.leader.base = base();
    if (pick < 0.15) {
      const username = `${tag}u${i}`;
      const res = await new HttpClient(base()).post('/api/auth/register', { username, password: 'Passw0rd1' });
      if (res.status === 200) ack({ kind: 'register', username, value: 'Passw0rd1' });
      else refuse(res.status, res.text, res.body);
    } else if (pick < 0.3) {
      // A new participant registers a team: users, teams, team_members, registers and register_flows in one go.
      const username = `${tag}t${i}`;
      const signup = await new HttpClient(base()).post('/api/auth/register', { username, password: 'Passw0rd1' });
      if (signup.status !== 200) return refuse(signup.status, signup.text, signup.body);
      ack({ kind: 'register', username, value: 'Passw0rd1' });
      const who = new HttpClient(base());
      const login = await who.post('/api/auth/login', { username, password: 'Passw0rd1' });
      if (login.status !== 200) return refuse(login.status, login.text, login.body);
      const res = await who.post(`/api/team/register/${competitionId}`, { teamName: `${username}队`, info: REG_INFO });
      if (res.status === 200) ack({ kind: 'team', username, value: `${res.body!.data.registerId}:${res.body!.data.teamId}` });
      else refuse(res.status, res.text, res.body);
    } else if (pick < 0.5) {
      const value = `${tag}组织${i}`;
      const sent = profileSent.get(w.username) ?? [];
      sent.push(value);
      profileSent.set(w.username, sent);
      const res = await w.leader.put('/api/team/userinfo/', { organization: value });
      if (res.status === 200) ack({ kind: 'profile', username: w.username, value });
      else refuse(res.status, res.text, res.body);
    } else if (pick < 0.7) {
      const content = png(seed * 100_000 + i);
      const res = await w.leader.upload('/api/file/upload/avatar', 'avatar.png', content, 'image/png');
      if (res.status === 200) ack({ kind: 'avatar', username: w.username, value: res.body!.data.fileUri, sha256: sha256(content), size: content.length });
      else refuse(res.status, res.text, res.body);
    } else {
      const content = rand.bytes(rand.int(100_000, 1_500_000));
      const created = await createUpload(w.leader, questionId, content);
      if (created.status !== 201) return refuse(created.status, created.text, created.body);
      const location = created.headers.get('location')!;
      const half = rand.int(1, content.length - 1);
      const first = await patchUpload(w.leader, location, 0, content.subarray(0, half));
      if (first.status !== 204) return refuse(first.status, first.text, first.body);
      const last = await patchUpload(w.leader, location, half, content.subarray(half));
      if (last.status === 204) ack({ kind: 'works', username: w.username, value: String(w.teamId), sha256: sha256(content), size: content.length });
      else refuse(last.status, last.text, last.body);
    }
  }

  const loops = workers.map(async (w) => {
    while (running) {
      // A dropped connection (the server killed) is not an acknowledgement: it is only counted, and the worker waits
      // a moment rather than spin while the server is away.
      await step(w).catch(async () => {
        errors++;
        await new Promise((r) => setTimeout(r, 50));
      });
    }
  });
  return {
    acked,
    profileSent,
    refused,
    get errors() {
      return errors;
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Resolves once each kind of write has been acknowledged at least once. */
export async function untilEveryKind(load: Load, server?: Parameters<typeof untilAcked>[2]) {
  const kinds = ['register', 'team', 'profile', 'avatar', 'works'] as const;
  while (!kinds.every((k) => load.acked.some((a) => a.kind === k))) await untilAcked(load, 1, server);
}

/** Resolves once `count` more writes have been acknowledged (polling the record, never a fixed sleep). */
export async function untilAcked(load: Load, count: number, server?: { child: { exitCode: number | null }; output: string[] }, timeoutMs = 60_000) {
  const target = load.acked.length + count;
  const start = Date.now();
  while (load.acked.length < target) {
    if (server && server.child.exitCode !== null)
      throw new Error(
        `the server exited (code ${server.child.exitCode}) with ${load.acked.length} writes acknowledged:\n${server.output.join('').slice(-3000)}`,
      );
    if (Date.now() - start > timeoutMs)
      throw new Error(`only ${load.acked.length} writes acknowledged, ${load.refused.length} refused: ${JSON.stringify(load.refused.slice(0, 3))}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What is missing of the acknowledged writes, read straight from the database (snake_case SQL, either dialect). */
export async function missingAcked(
  query: (sql: string) => Promise<Record<string, unknown>[]>,
  load: Pick<Load, 'acked' | 'profileSent'>,
  upTo = Infinity,
): Promise<string[]> {
  const problems: string[] = [];
  const users = new Map((await query('select username, organization from users')).map((r) => [String(r.username), r.organization as string | null]));
  const files = new Map((await query('select key, size, sha256 from files')).map((r) => [String(r.key), `${Number(r.size)}:${String(r.sha256)}`]));
  const works = new Set((await query('select team_id, sha256 from works')).map((r) => `${Number(r.team_id)}:${String(r.sha256)}`));
  const registers = new Set(
    (await query('select r.id, r.team_id from registers r join teams t on t.id = r.team_id join team_members m on m.team_id = t.id')).map(
      (r) => `${Number(r.id)}:${Number(r.team_id)}`,
    ),
  );
  const lastProfile = new Map<string, string>();
  for (const a of load.acked.filter((x) => x.seq < upTo)) {
    if (a.kind === 'register' && !users.has(a.username)) problems.push(`user ${a.username} registered but missing`);
    if (a.kind === 'team' && !registers.has(a.value)) problems.push(`team registration ${a.value} of ${a.username} acknowledged but missing`);
    if (a.kind === 'profile') lastProfile.set(a.username, a.value);
    if (a.kind === 'avatar' && files.get(a.value) !== `${a.size}:${a.sha256}`) problems.push(`avatar ${a.value} acknowledged but missing`);
    if (a.kind === 'works' && !works.has(`${a.value}:${a.sha256}`)) problems.push(`works ${a.sha256} of team ${a.value} acknowledged but missing`);
  }
  for (const [username, value] of lastProfile) {
    // A later edit the server committed but could not acknowledge (killed first) may have replaced it.
    const sent = load.profileSent.get(username) ?? [];
    const allowed = sent.slice(sent.indexOf(value));
    const now = users.get(username) ?? null;
    if (now === null || !allowed.includes(now)) problems.push(`profile of ${username} is ${String(now)}, acknowledged ${value}`);
  }
  return problems;
}
