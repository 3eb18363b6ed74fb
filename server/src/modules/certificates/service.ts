import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  certDateText,
  CERT_BUILTIN_SIZE,
  CERT_CODE_ALPHABET,
  CERT_FIELD_NAMES,
  CERT_RUN_STATE,
  GRADE_STATE,
  type Certificate,
  type CertBackground,
  type CertificateCheck,
  type CertificateRun,
  type CertificateTemplate,
  type CertFieldPlacement,
  type TemplateBody,
  type TemplateQuery,
  builtinLayoutOf,
  certNoValue,
  normalizeCertInput,
  templateBody,
} from '@contest/shared';
import type { AuthedCtx, Ctx, Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { badRequest, conflict, notFound, tooMany } from '../../http/errors.ts';
import { retryMinutes } from '../../limits/rate-limiter.ts';
import { readStored } from '../../storage/file-store.ts';
import { enqueue } from '../../jobs/define.ts';
import { writeAudit } from '../audit-log/index.ts';
import { imageSize, uploadCertificateBackground } from '../files/index.ts';
import { loadRule, managedQuestion, teamPeople } from '../review/index.ts';
import { generateJob } from './jobs.ts';
import { renderCertificate } from './pdf.ts';
import { notify } from '../notices/index.ts';
import { publicUrlMissing } from '../../http/origin.ts';
import * as competitions from '../competitions/index.ts';
import * as teams from '../teams/index.ts';
import * as repo from './repo.ts';

// ---- Templates --------------------------------------------------------------------------------------------------------

type TemplateRow = {
  id: number;
  competitionId: number;
  name: string;
  backgroundKey: string;
  width: number;
  height: number;
  fieldsJson: string;
  updatedAt: string;
};
const toTemplate = ({ backgroundKey, fieldsJson, ...r }: TemplateRow): CertificateTemplate => ({
  ...r,
  backgroundUri: backgroundKey,
  fields: JSON.parse(fieldsJson) as CertFieldPlacement[],
});

export async function templatePage(ctx: Ctx, competitionId: number, q: { page: number; limit: number }) {
  await competitions.managedCompetition(ctx, competitionId);
  const { rows, total } = await repo.templatePage(ctx.db, competitionId, { limit: q.limit, offset: (q.page - 1) * q.limit });
  return { list: rows.map(toTemplate), total };
}

async function managedTemplate(ctx: Ctx, id: number) {
  const row = await repo.findTemplate(ctx.db, id);
  if (!row) throw notFound('证书模板不存在');
  await competitions.managedCompetition(ctx, row.competitionId).catch(() => {
    throw notFound('证书模板不存在');
  });
  return row;
}

export const getTemplate = async (ctx: Ctx, id: number) => toTemplate(await managedTemplate(ctx, id));

/**
 * The background must be a built-in layout, or a certificate image uploaded by the caller (or the one the template
 * already has). Every field must start on the page.
 */
async function checkTemplate(ctx: AuthedCtx, body: TemplateBody, previousKey?: string) {
  const builtin = builtinLayoutOf(body.backgroundUri);
  const size = builtin ? CERT_BUILTIN_SIZE[builtin] : await backgroundSize(ctx, body, previousKey);
  const fields: Record<string, string> = {};
  body.fields.forEach((f, i) => {
    if (f.x >= size.width || f.y >= size.height)
      fields[`fields.${i}.x`] = `“${CERT_FIELD_NAMES[f.field]}”的位置超出了${builtin ? '页面' : '背景图'}（${size.width}×${size.height}）`;
  });
  const first = Object.values(fields)[0];
  if (first) throw badRequest(first, fields);
  return size;
}

async function backgroundSize(ctx: AuthedCtx, body: TemplateBody, previousKey?: string) {
  const file = await repo.findFile(ctx.db, body.backgroundUri);
  if (file?.purpose !== 'certificate' || (file.key !== previousKey && file.ownerId !== ctx.actor.userId)) {
    throw badRequest('证书背景图无效，请重新上传', { backgroundUri: '证书背景图无效，请重新上传' });
  }
  const size = imageSize(await readStored(ctx.storage, file.key, 1024 * 1024));
  if (!size) throw badRequest('无法读取证书背景图的尺寸，请重新上传', { backgroundUri: '无法读取证书背景图的尺寸，请重新上传' });
  return size;
}

/**
 * `POST /{competitionId}` (query): the template from its query parameters when no JSON body came; `fields` is the
 * placements as JSON text (the whole array, or one placement per repeated parameter). Checked as a body is.
 */
export function templateInput(body: TemplateBody | null | undefined, query: TemplateQuery): TemplateBody {
  if (body) return body;
  const raw = query.fields === undefined ? [] : Array.isArray(query.fields) ? query.fields : [query.fields];
  let fields: unknown[] = [];
  try {
    for (const text of raw) {
      const value: unknown = JSON.parse(text);
      fields = fields.concat(Array.isArray(value) ? value : [value]);
    }
  } catch {
    throw badRequest('证书字段须为JSON格式', { fields: '证书字段须为JSON格式' });
  }
  const parsed = templateBody.safeParse({ name: query.name, backgroundUri: query.backgroundUri, fields });
  if (parsed.success) return parsed.data;
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join('.') || '_';
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) errors[path === '_' ? key : `${path}.${key}`] ??= `不支持的字段：${key}`;
    else errors[path] ??= issue.message;
  }
  throw badRequest(Object.values(errors)[0]!, errors);
}

export async function createTemplate(ctx: AuthedCtx, competitionId: number, body: TemplateBody) {
  await competitions.managedCompetition(ctx, competitionId);
  const size = await checkTemplate(ctx, body);
  const row = await repo.insertTemplate(ctx.db, {
    competitionId,
    name: body.name,
    backgroundKey: body.backgroundUri,
    ...size,
    fieldsJson: JSON.stringify(body.fields),
    updatedAt: ctx.clock.now().toISOString(),
  });
  await writeAudit(ctx, { action: 'certificate.template.create', entity: 'certificateTemplate', entityId: row.id, after: body });
  return toTemplate(row);
}

export async function updateTemplate(ctx: AuthedCtx, id: number, body: TemplateBody) {
  const before = await managedTemplate(ctx, id);
  const size = await checkTemplate(ctx, body, before.backgroundKey);
  const row = await repo.updateTemplate(ctx.db, id, {
    name: body.name,
    backgroundKey: body.backgroundUri,
    ...size,
    fieldsJson: JSON.stringify(body.fields),
    updatedAt: ctx.clock.now().toISOString(),
  });
  await writeAudit(ctx, { action: 'certificate.template.update', entity: 'certificateTemplate', entityId: id, before: toTemplate(before), after: body });
  return toTemplate(row);
}

export async function deleteTemplate(ctx: Ctx, id: number) {
  const before = await managedTemplate(ctx, id);
  if (await repo.templateRunning(ctx.db, id)) throw conflict('该模板正在用于生成证书，请稍后再删除');
  await repo.deleteTemplate(ctx.db, id);
  await writeAudit(ctx, { action: 'certificate.template.delete', entity: 'certificateTemplate', entityId: id, before: toTemplate(before) });
}

// ---- Uploads (`upload/{questionId}`) -----------------------------------------------------------------------------------

/** A background uploaded for the question's certificates: only by those who may edit them (the question's organisers). */
export async function uploadBackground(ctx: AuthedCtx, questionId: number, receive: () => Promise<CertBackground>) {
  await managedQuestion(ctx, questionId);
  return receive();
}

/**
 * A certificate upload served to those who may edit the question's certificates: a background the caller uploaded or
 * one of the competition's templates is written on; without a key, the background of the question's template.
 */
export async function uploadedFile(ctx: AuthedCtx, questionId: number, fileUri?: string) {
  const q = await managedQuestion(ctx, questionId);
  let key = fileUri;
  if (!key) {
    const run = await runOf(ctx.db, questionId);
    const template = run.templateId ? await repo.findTemplate(ctx.db, run.templateId) : undefined;
    if (!template) throw notFound('该赛题还没有选择证书模板');
    if (builtinLayoutOf(template.backgroundKey)) throw notFound('该赛题的证书模板使用内置版式，没有背景图');
    key = template.backgroundKey;
  }
  const file = await repo.findUpload(ctx.db, key);
  if (!file || (file.ownerId !== ctx.actor.userId && !(await repo.competitionUsesBackground(ctx.db, q.competitionId, key)))) throw notFound('文件不存在');
  return { key: file.key, name: file.originalName, mime: file.mime, sha256: file.sha256 };
}

// ---- Generation -------------------------------------------------------------------------------------------------------

async function runOf(db: Db, questionId: number): Promise<CertificateRun> {
  const row = await repo.findRun(db, questionId);
  return row
    ? { questionId, templateId: row.templateId, state: row.state, total: row.total, done: row.done, error: row.error }
    : { questionId, templateId: null, state: CERT_RUN_STATE.idle, total: 0, done: 0, error: null };
}

export async function progress(ctx: Ctx, questionId: number) {
  await managedQuestion(ctx, questionId);
  return runOf(ctx.db, questionId);
}

/** `relation/{questionId}`: the template the question's certificates are written on. */
export async function relate(ctx: Ctx, questionId: number, templateId: number) {
  const q = await managedQuestion(ctx, questionId);
  const t = await repo.findTemplate(ctx.db, templateId);
  if (!t || t.competitionId !== q.competitionId) throw badRequest('请选择本竞赛的证书模板', { templateId: '请选择本竞赛的证书模板' });
  const now = ctx.clock.now().toISOString();
  await repo.relateTemplate(ctx.db, questionId, templateId, now);
  await writeAudit(ctx, { action: 'certificate.relation', entity: 'question', entityId: questionId, after: { templateId } });
  return runOf(ctx.db, questionId);
}

/** Everyone a question's certificates go to: each member and teacher of every awarded team. */
async function holders(db: Db, questionId: number) {
  const awarded = await repo.awardedTeams(db, questionId);
  const people = await teamPeople(
    db,
    awarded.map((a) => a.teamId),
  );
  return awarded.flatMap((a) => {
    const p = people.get(a.teamId)!;
    const schools = p.schools.join('、') || null;
    const members = p.members.map((m) => m.name).join('、');
    return [
      ...p.members.map((m) => ({
        ...a,
        members,
        kind: 'member' as const,
        ref: m.userId,
        userId: m.userId as number | null,
        name: m.name,
        school: m.school ?? schools,
      })),
      ...p.teachers.map((t) => ({ ...a, members, kind: 'teacher' as const, ref: t.id, userId: null, name: t.name, school: t.school ?? schools })),
    ];
  });
}

/**
 * Starts writing the question's certificates in the background; `cert/push` (GET) reports the progress. `origin` is
 * the platform's public address, for the verification QR code on each certificate (see `publicOrigin`): without one
 * nothing starts, since a certificate printed with a wrong address cannot be verified.
 */
export async function push(ctx: Ctx, questionId: number, origin: string | null) {
  await managedQuestion(ctx, questionId);
  if (!origin) throw publicUrlMissing('生成证书');
  const rule = await loadRule(ctx.db, questionId);
  if (rule.gradeState !== GRADE_STATE.confirmed) throw conflict('请先确认成绩');
  const run = await runOf(ctx.db, questionId);
  if (!run.templateId) throw conflict('请先为该赛题选择证书模板');
  const total = (await holders(ctx.db, questionId)).length;
  if (!total) throw conflict('该赛题还没有获奖队伍');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.startRun(trx, questionId, total, now.toISOString()))) throw conflict('证书正在生成中，请稍候');
    await enqueue(trx, generateJob, { questionId, origin }, now);
    await writeAudit(ctx, { action: 'certificate.push', entity: 'question', entityId: questionId, after: { total } }, trx);
  });
  return runOf(ctx.db, questionId);
}

/**
 * Writes (or rewrites, keeping its number) the certificate of every holder, and withdraws those of holders who no
 * longer hold an award. Numbers come from the row id, so they are unique without a counter to race on. The
 * generating job's work (see jobs.ts).
 */
export async function generate(deps: Deps, questionId: number, origin: string) {
  const run = await runOf(deps.db, questionId);
  const template = run.templateId ? await repo.findTemplate(deps.db, run.templateId) : undefined;
  if (!template) throw new Error('证书模板已被删除');
  const q = await repo.questionHeading(deps.db, questionId);
  const builtin = builtinLayoutOf(template.backgroundKey);
  const background = builtin ? { builtin } : await readStored(deps.storage, template.backgroundKey);
  const fields = JSON.parse(template.fieldsJson) as CertFieldPlacement[];
  const list = await holders(deps.db, questionId);
  const now = deps.clock.now();
  const year = String(new Date(now.getTime() + 8 * 3600_000).getUTCFullYear());
  const kept: number[] = [];
  let done = 0;
  for (const h of list) {
    const existing = await repo.findHolderCertificate(deps.db, { questionId, teamId: h.teamId, holderKind: h.kind, holderRef: h.ref });
    const row =
      existing ??
      (await deps.db.transaction().execute(async (trx) => {
        const verifyCode = randomBytes(8).toString('hex');
        const id = await repo.insertCertificate(trx, {
          certNo: `tmp-${randomBytes(8).toString('hex')}`,
          verifyCode,
          competitionId: q.competitionId,
          questionId,
          teamId: h.teamId,
          holderKind: h.kind,
          holderRef: h.ref,
          userId: h.userId,
          holderName: h.name,
          school: h.school,
          awardName: h.awardName,
          fileKey: '',
          createdAt: now.toISOString(),
        });
        const certNo = `${year}${String(id).padStart(8, '0')}`;
        await repo.updateCertificate(trx, id, { certNo });
        return { id, certNo, verifyCode, fileKey: '' };
      }));
    const pdf = await renderCertificate({
      background,
      width: template.width,
      height: template.height,
      fields,
      values: {
        name: h.name,
        team: h.teamName,
        members: h.members,
        school: h.school ?? '',
        award: h.awardName,
        question: q.title,
        competition: q.competitionName,
        organizer: q.organizer ?? '',
        certNo: certNoValue(row.certNo, formatShortCode(shortCode(row.verifyCode))),
        date: certDateText(now),
      },
      verifyUrl: `${origin}/certificate/verify/${row.certNo}?code=${row.verifyCode}`,
      font: deps.config.certFont,
    });
    const stored = await deps.storage.put(Readable.from([pdf]), { prefix: 'certificate-pdf', maxBytes: pdf.length });
    await repo.updateCertificate(deps.db, row.id, {
      fileKey: stored.key,
      holderName: h.name,
      school: h.school,
      awardName: h.awardName,
      userId: h.userId,
      createdAt: now.toISOString(),
    });
    if (row.fileKey) await deps.storage.delete(row.fileKey);
    kept.push(row.id);
    done++;
    await repo.setRunDone(deps.db, questionId, done, deps.clock.now().toISOString());
  }
  const withdrawn = await repo.certificatesExcept(deps.db, questionId, kept);
  for (const w of withdrawn) {
    await repo.deleteCertificate(deps.db, w.id);
    if (w.fileKey) await deps.storage.delete(w.fileKey);
  }
  await repo.finishRun(deps.db, questionId, list.length, done, deps.clock.now().toISOString());
  await notify(
    deps,
    list.flatMap((h) => (h.userId ? [h.userId] : [])),
    {
      title: '获奖证书已生成',
      content: `“${q.competitionName}”赛题“${q.title}”的获奖证书已生成，可在竞赛的“我的证书”页面查看和下载。`,
      source: 'certificate.ready',
    },
  );
}

/** The generating job has used up its attempts: the run shows as failed, with the reason. */
export async function generationGaveUp(deps: Deps, questionId: number, error: string) {
  await repo.failRun(deps.db, questionId, error.slice(0, 1000), deps.clock.now().toISOString());
}

// ---- Reading certificates -----------------------------------------------------------------------------------------------

const toCertificate = (r: repo.CertificateRow): Certificate => ({ ...r, holderKind: r.holderKind as Certificate['holderKind'] });

export async function questionCertificates(ctx: Ctx, questionId: number, q: { page: number; limit: number; keyword?: string }, max = q.limit) {
  await managedQuestion(ctx, questionId);
  const { rows, total } = await repo.questionCertificates(ctx.db, questionId, { keyword: q.keyword, limit: max, offset: (q.page - 1) * q.limit });
  return { list: rows.map(toCertificate), total };
}

/** Every certificate of a question (those the keyword keeps), for its organisers, in batches: the export. */
export async function exportQuestionCertificates(ctx: Ctx, questionId: number, q: { keyword?: string }, batchSize?: number) {
  await managedQuestion(ctx, questionId);
  const batches = repo.exportQuestionCertificates(ctx.db, questionId, q, batchSize);
  return (async function* () {
    for await (const rows of batches) yield rows.map(toCertificate);
  })();
}

/** The caller's own certificates (as a member), newest first. */
export async function mine(ctx: AuthedCtx, competitionId?: number) {
  return (await repo.userCertificates(ctx.db, ctx.actor.userId, competitionId)).map(toCertificate);
}

/** `person/{teamId}`: every certificate of a team (members' and teachers'), for its members and its organisers. */
export async function ofTeam(ctx: AuthedCtx, teamId: number) {
  const competitionId = await repo.teamCompetition(ctx.db, teamId);
  if (competitionId === undefined || !(await teams.memberOrOrganiser(ctx, { id: teamId, competitionId }, 'questionKeeper'))) throw notFound('队伍不存在');
  return (await repo.teamCertificates(ctx.db, teamId)).map(toCertificate);
}

/** One certificate, for its holder's team and the competition's organisers; anyone else is told it does not exist. */
export async function load(ctx: AuthedCtx, id: number) {
  const row = await repo.findCertificate(ctx.db, id);
  if (!row?.fileKey || !(await teams.memberOrOrganiser(ctx, { id: row.teamId, competitionId: row.competitionId }, 'questionKeeper')))
    throw notFound('证书不存在');
  return { row, certificate: toCertificate(await repo.certificateRow(ctx.db, id)) };
}

export async function download(ctx: AuthedCtx, id: number) {
  const { row } = await load(ctx, id);
  return { key: row.fileKey, name: `${row.holderName}-${row.awardName}-证书${row.certNo}.pdf`, mime: 'application/pdf' };
}

/** Shows only the first character of a name. */
const mask = (name: string) => [...name].map((ch, i) => (i === 0 ? ch : '*')).join('');

/**
 * The short code printed beside the number: the first 40 of the 64 random bits of the QR code's verification code,
 * as 8 characters of an alphabet without look-alikes (no 0/O, 1/I). Derived, not stored, so certificates written
 * before it existed have one too (printed once they are written again).
 */
export function shortCode(verifyCode: string): string {
  let n = parseInt(verifyCode.slice(0, 10), 16);
  let out = '';
  for (let i = 0; i < 8; i++) {
    out = CERT_CODE_ALPHABET[n % 32]! + out;
    n = Math.floor(n / 32);
  }
  return out;
}
export const formatShortCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** Whether a typed or scanned code is the certificate's: the QR code's 16 hex digits, or the printed short code. */
function codeMatches(verifyCode: string, typed: string) {
  const code = normalizeCertInput(typed);
  if (!code) return false;
  return /^[0-9A-F]{16}$/.test(code) ? code === verifyCode.toUpperCase() : code === shortCode(verifyCode);
}

const NOT_FOUND = '未找到该证书，或验证码不正确';

/**
 * The public check, behind the QR code and the verification form: the number and its code (the QR code's, or the
 * short one printed beside the number; case, spaces and dashes do not matter) must match. Each check holds a place in
 * the caller's address's allowance of wrong checks, given back when it succeeds: past the allowance, every check
 * from that address is refused for the rest of the window, so numbers and codes cannot be tried in bulk.
 */
export async function verify(ctx: Ctx, certNo: string, code: string): Promise<CertificateCheck> {
  const key = `cert-verify:ip:${ctx.ip}`;
  const hit = await ctx.limiter.hit(key, ctx.config.publicWrites.certVerifyFailuresPerIp, ctx.config.publicWrites.windowMs);
  if (!hit.allowed) throw tooMany(`验证失败次数过多，请${retryMinutes(hit.retryAfterMs)}分钟后再试`);
  const number = normalizeCertInput(certNo);
  const row = number ? await repo.certificateByNumber(ctx.db, number) : undefined;
  if (!row || !codeMatches(row.verifyCode, code)) throw notFound(NOT_FOUND);
  await ctx.limiter.release(key);
  return {
    certNo: row.certNo,
    holderName: mask(row.holderName),
    competitionName: row.competitionName,
    questionTitle: row.questionTitle,
    awardName: row.awardName,
    createdAt: row.createdAt,
  };
}

/** A certificate background as the browser's form sent it: kept as an upload of the caller's, at most `max` bytes. */
export const receiveBackground = uploadCertificateBackground;
