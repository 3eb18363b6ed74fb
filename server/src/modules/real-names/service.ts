import {
  ACTION_CODES,
  REAL_NAME_CHECKS_PER_DAY,
  REAL_NAME_TEXT,
  autoChecked,
  docKeyText,
  maskIdCard,
  normaliseDocNumber,
  realNameRequiredText,
  teamRealNameText,
  type RealNameAuditBody,
  type RealNameBody,
  type RealNameDetail,
  type RealNameDocType,
  type RealNameListQuery,
  type RealNameMenu,
  type RealNameRow,
  type RealNameView,
} from '@contest/shared';
import type { AuthedCtx, Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, conflict, forbidden, notFound, tooMany } from '../../http/errors.ts';
import { checkAliyun } from '../../idcheck/aliyun.ts';
import { IdCheckError, type IdCheckResult } from '../../idcheck/provider.ts';
import type { SimulatorRegister } from '../../idcheck/simulator.ts';
import { writeAudit } from '../audit-log/index.ts';
import { assertOwnFile, grantPrivateReads } from '../files/index.ts';
import { notify } from '../notices/index.ts';
import * as policy from '../../policy.ts';
import * as repo from './repo.ts';
export { NO_RECORD_SEQUENCE, ZHANG_SAN_SEQUENCE } from '../../idcheck/simulator.ts';

/**
 * 实名认证 (issue 35). A person proves their name with a document. A mainland 居民身份证 is checked at once by the
 * provider (Aliyun 实人认证, or its simulator outside production); without one set up, and for every other document,
 * the platform reviews a photo of it (系统管理 → 实名审核). The document's number is normalised (15 digits to 18, x to X)
 * and its keyed hash (SECRET_KEY) is held, unique, from the moment it is checked or submitted until it is refused: a
 * second account gets 409 with how to recover the first, without naming it. A verified account's name is what
 * certificates print; competitions may keep registering, downloading data and submitting for verified people.
 */

/** A check whose process died during the provider's call lets its document go after this long. */
const STALE_CHECK_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

const numberKey = (deps: Pick<Deps, 'cipher'>, docType: RealNameDocType, normalised: string) =>
  deps.cipher.mac('real-name-document', docKeyText(docType, normalised));

/** Whether 居民身份证 are checked by a provider (or the simulator), rather than reviewed by hand. */
const providerReady = (deps: Pick<Deps, 'config' | 'idCheckSimulator'>) => Boolean(deps.idCheckSimulator || deps.config.idcheck);

async function askProvider(deps: Pick<Deps, 'config' | 'idCheckSimulator'>, name: string, number: string): Promise<IdCheckResult> {
  const sim = deps.idCheckSimulator;
  if (sim) return checkAliyun(sim.keys, name, number, await sim.endpoint());
  const c = deps.config.idcheck;
  if (!c || c.simulator) throw new IdCheckError('未配置实名核验服务');
  return checkAliyun(c, name, number);
}

const stateOf = (s: string | undefined): RealNameView['state'] =>
  s === 'verified' ? 'verified' : s === 'pending' || s === 'checking' ? 'pending' : s === 'rejected' ? 'rejected' : 'none';

export async function view(ctx: AuthedCtx): Promise<RealNameView> {
  const userId = ctx.actor.userId;
  const last = await repo.latestCheck(ctx.db, userId);
  const since = new Date(ctx.clock.now().getTime() - DAY_MS).toISOString();
  const used = await repo.providerChecksSince(ctx.db, userId, since);
  return {
    state: stateOf(last?.state),
    docType: (last?.docType as RealNameDocType | undefined) ?? null,
    name: last?.name ?? null,
    numberMask: last?.numberMask ?? null,
    reason: last && ['rejected', 'mismatch', 'no_record', 'failed'].includes(last.state) ? last.reason : null,
    submittedAt: last?.createdAt ?? null,
    decidedAt: last?.decidedAt ?? null,
    autoCheck: providerReady(ctx),
    checksLeft: Math.max(0, REAL_NAME_CHECKS_PER_DAY - used),
  };
}

/**
 * Claims the document for this account: the attempt is written holding the document's key, and the unique indexes
 * refuse it when another account's attempt holds the document, or another attempt of this account holds one (checking,
 * waiting for review, or verified), whatever the timing. A check left unsettled by a process that died lets go first.
 */
async function claim(ctx: AuthedCtx, key: string, values: Omit<Parameters<typeof repo.insertCheck>[1], 'numberKey'>) {
  const now = ctx.clock.now();
  const stale = new Date(now.getTime() - STALE_CHECK_MS).toISOString();
  await repo.releaseStale(ctx.db, { userId: ctx.actor.userId }, stale, now.toISOString());
  await repo.releaseStale(ctx.db, { numberKey: key }, stale, now.toISOString());
  try {
    return await repo.insertCheck(ctx.db, { ...values, numberKey: key });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const own = await repo.openOfUser(ctx.db, ctx.actor.userId);
    if (own) throw conflict(own.state === 'verified' ? REAL_NAME_TEXT.already : REAL_NAME_TEXT.waiting);
    throw conflict(REAL_NAME_TEXT.taken);
  }
}

/**
 * `POST /api/account/realname`. A 居民身份证 with a provider set up is checked now: verified, or refused with why
 * (the name does not match; no record, where a review by photo is offered). Any other document, or a 居民身份证 with no
 * provider, waits for the platform's review with its photo.
 */
export async function submit(ctx: AuthedCtx, body: RealNameBody): Promise<RealNameView> {
  const userId = ctx.actor.userId;
  const last = await repo.latestCheck(ctx.db, userId);
  if (last?.state === 'verified') throw conflict(REAL_NAME_TEXT.already);
  if (last?.state === 'pending') throw conflict(REAL_NAME_TEXT.waiting);
  const normalised = normaliseDocNumber(body.docType, body.number);
  const key = numberKey(ctx, body.docType, normalised);
  const auto = autoChecked(body.docType) && providerReady(ctx);
  if (!auto && !body.fileUri) throw badRequest(REAL_NAME_TEXT.photo, { fileUri: REAL_NAME_TEXT.photo });
  if (!auto) await assertOwnFile(ctx, 'fileUri', body.fileUri!, 'identity');
  const now = ctx.clock.now();
  if (auto) {
    const used = await repo.providerChecksSince(ctx.db, userId, new Date(now.getTime() - DAY_MS).toISOString());
    if (used >= REAL_NAME_CHECKS_PER_DAY) throw tooMany(`今天的实名核验次数已用完（每天${REAL_NAME_CHECKS_PER_DAY}次），请明天再试`);
  }
  const id = await claim(ctx, key, {
    userId,
    docType: body.docType,
    name: body.name,
    numberEnc: ctx.cipher.encrypt(normalised),
    numberMask: maskIdCard(normalised),
    method: auto ? 'auto' : 'manual',
    state: auto ? 'checking' : 'pending',
    fileKey: auto ? null : body.fileUri!,
    createdAt: now.toISOString(),
  });
  if (!auto) {
    await writeAudit(ctx, { action: 'realname.submit', entity: 'realNameCheck', entityId: id, after: { docType: body.docType, name: body.name } });
    return view(ctx);
  }

  let result: IdCheckResult;
  try {
    result = await askProvider(ctx, body.name, normalised);
  } catch (err) {
    const reason = err instanceof IdCheckError ? err.message : '核验服务出错';
    await repo.settle(ctx.db, id, 'checking', { state: 'failed', keepKey: false, reason, decidedAt: ctx.clock.now().toISOString() });
    ctx.log.warn({ err }, 'real-name check failed');
    throw new AppError(503, REAL_NAME_TEXT.unavailable);
  }
  const decidedAt = ctx.clock.now().toISOString();
  if (result.outcome === 'match') {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.settle(trx, id, 'checking', { state: 'verified', keepKey: true, providerRef: result.providerRef, decidedAt });
      await repo.setVerifiedName(trx, userId, body.name, decidedAt);
    });
    await writeAudit(ctx, { action: 'realname.verified', entity: 'realNameCheck', entityId: id, after: { docType: body.docType, name: body.name } });
    return view(ctx);
  }
  const reason = result.outcome === 'mismatch' ? REAL_NAME_TEXT.mismatch : REAL_NAME_TEXT.noRecord;
  await repo.settle(ctx.db, id, 'checking', { state: result.outcome, keepKey: false, reason, providerRef: result.providerRef, decidedAt });
  throw badRequest(reason, { [result.outcome === 'mismatch' ? 'name' : 'number']: reason });
}

// ---- the platform's review ----------------------------------------------------------------------------------------------

const toRow = (r: NonNullable<Awaited<ReturnType<typeof repo.findCheck>>>): RealNameRow => ({
  id: r.id,
  userId: r.userId,
  username: r.username,
  docType: r.docType as RealNameDocType,
  name: r.name,
  numberMask: r.numberMask,
  method: r.method as 'auto' | 'manual',
  state: r.state,
  reason: r.reason,
  createdAt: r.createdAt,
  decidedAt: r.decidedAt,
  decidedBy: r.decidedBy,
});

export async function list(ctx: AuthedCtx, q: RealNameListQuery) {
  const { rows, total } = await repo.listChecks(ctx.db, { state: q.state, keyword: q.keyword, limit: q.limit, offset: (q.page - 1) * q.limit });
  return { list: rows.map(toRow), total, page: q.page, limit: q.limit };
}

/** One attempt with the whole number and its photo; each look is audited (a reviewer reads a person's document). */
export async function detail(ctx: AuthedCtx, id: number): Promise<RealNameDetail> {
  const r = await repo.findCheck(ctx.db, id);
  if (!r) throw notFound('实名认证记录不存在');
  await writeAudit(ctx, { action: 'realname.view', entity: 'realNameCheck', entityId: id });
  return { ...toRow(r), number: ctx.cipher.decrypt(r.numberEnc), fileUri: r.fileKey, fileMime: r.fileMime };
}

/** Passes or refuses an attempt waiting for review; the person is told (in-app, and by email or SMS as they chose). */
export async function audit(ctx: AuthedCtx, id: number, body: RealNameAuditBody) {
  const r = await repo.findCheck(ctx.db, id);
  if (!r) throw notFound('实名认证记录不存在');
  if (r.state !== 'pending') throw conflict('该申请已审核过，请刷新列表');
  const now = ctx.clock.now().toISOString();
  const settled = await ctx.db.transaction().execute(async (trx) => {
    const done = await repo.settle(trx, id, 'pending', {
      state: body.pass ? 'verified' : 'rejected',
      keepKey: body.pass,
      reason: body.pass ? null : body.reason,
      decidedAt: now,
      decidedBy: ctx.actor.userId,
    });
    if (done && body.pass) await repo.setVerifiedName(trx, r.userId, r.name, now);
    return done;
  });
  if (!settled) throw conflict('该申请已审核过，请刷新列表');
  await writeAudit(ctx, { action: body.pass ? 'realname.approve' : 'realname.reject', entity: 'realNameCheck', entityId: id, after: body });
  await notify(
    ctx,
    [r.userId],
    body.pass
      ? { title: '实名认证已通过', content: `你提交的${r.name}的证件已审核通过，账号已完成实名认证。`, source: 'realname.result' }
      : { title: '实名认证未通过', content: `你提交的实名认证未通过审核：${body.reason}。可在个人中心的“实名认证”重新提交。`, source: 'realname.result' },
  );
}

// Reviewers read the document photos of the attempts they review.
grantPrivateReads('identity', async (ctx, key) => policy.holds(ctx, ACTION_CODES.realNameAudit) && (await repo.isDocumentPhoto(ctx.db, key)));

// ---- what competitions require -----------------------------------------------------------------------------------------

/** Refuses a person not verified when the competition keeps `menu`'s action for verified people. */
/** Whether the user completed 实名认证. */
export const isVerified = async (db: Db, userId: number) => Boolean(await repo.verifiedName(db, userId));

export async function assertVerified(db: Db, userId: number, menu: RealNameMenu) {
  if (!(await repo.verifiedName(db, userId))) throw forbidden(realNameRequiredText(menu));
}

/** Why a team may not submit when some of its members are not verified (submitting needs every member verified). */
export async function teamRefusal(db: Db, teamId: number, menu: RealNameMenu): Promise<string | null> {
  const missing = await repo.unverifiedMembers(db, teamId);
  return missing.length
    ? teamRealNameText(
        menu,
        missing.map((m) => m.userName || m.username),
      )
    : null;
}

// ---- the simulator --------------------------------------------------------------------------------------------------------

/** The simulator's register, kept in the platform's database (any process answers the same). */
export const simulatorRegister =
  (deps: Pick<Deps, 'db' | 'clock'>): SimulatorRegister =>
  async (number, name) => {
    await repo.enterSimulatedPerson(deps.db, number, name, deps.clock.now().toISOString());
    return (await repo.simulatedPerson(deps.db, number))?.name ?? name;
  };

export const simulatorPeople = (db: Db) => repo.simulatedPeople(db, 100);
