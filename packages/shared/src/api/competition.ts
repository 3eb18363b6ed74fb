import { z } from 'zod';
import { MENU_CODES } from '../enums.ts';
import { PHASES, type CompetitionPhase, type PhaseCode } from '../lifecycle.ts';
import { REG_FIELDS, customFieldName, type Competition, type CompetitionListItem, type Preset, type PresetField, type RegFieldName, type Stage } from './catalogue.ts';

/**
 * Response schemas of the competitions module (its routes' replies, see `envelope` in common.ts). The types they
 * describe stay declared where the rest of the code has long found them (catalogue.ts, and lifecycle.ts, which the
 * site's first screen loads without zod); the `_…Agrees` checks below keep each schema and its type the same.
 */

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;

/** A competition's phase (lifecycle.ts `competitionPhase`). */
export const competitionPhaseSchema = z.object({
  code: z.enum(Object.keys(PHASES) as [PhaseCode, ...PhaseCode[]]),
  name: z.string(),
  stageName: z.string().nullable(),
  registrationEnd: z.string(),
  submissionDeadline: z.string(),
  next: z.object({ label: z.string(), at: z.string() }).nullable(),
});
const _phaseAgrees: Same<z.infer<typeof competitionPhaseSchema>, CompetitionPhase> = true;
void _phaseAgrees;

export const competitionListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  brandId: z.number().int(),
  brandShortName: z.string(),
  typeId: z.number().int().nullable(),
  typeName: z.string().nullable(),
  orgId: z.number().int(),
  orgName: z.string(),
  cover: z.string().nullable(),
  summary: z.string().nullable(),
  regStartTime: z.string(),
  regEndTime: z.string(),
  endTime: z.string(),
  fee: z.number().int(),
  /** AUDIT_STATUS. */
  auditStatus: z.literal([0, 1, 2, 3, 4]),
  /** The public list's status (spec §4). */
  status: z.literal([1, 2, 3, 4]),
  teamNum: z.number().int(),
});
const _listItemAgrees: Same<z.infer<typeof competitionListItemSchema>, CompetitionListItem> = true;
void _listItemAgrees;

/** A row of the public and the back office's lists: the item with its phase, for the cards and the phase tag. */
export const competitionListEntrySchema = competitionListItemSchema.extend({ phase: competitionPhaseSchema });

export const competitionSchema = competitionListItemSchema.extend({
  introduce: z.string().nullable(),
  information: z.string().nullable(),
  guide: z.string().nullable(),
  trainingUrl: z.string().nullable(),
  allowIndividual: z.boolean(),
  invoiceEnable: z.boolean(),
  minMembers: z.number().int(),
  maxMembers: z.number().int(),
  maxTeachers: z.number().int(),
  worksMaxMb: z.number().int(),
  worksTypes: z.string(),
  auditReply: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const _competitionAgrees: Same<z.infer<typeof competitionSchema>, Competition> = true;
void _competitionAgrees;

export const stageSchema = z.object({
  id: z.number().int(),
  competitionId: z.number().int(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string().nullable(),
  sort: z.number().int(),
});
const _stageAgrees: Same<z.infer<typeof stageSchema>, Stage> = true;
void _stageAgrees;

/** `GET /api/competition/public/{id}`: the competition with its stages, its active stage (0: none yet) and its phase. */
export const competitionDetailSchema = competitionSchema.extend({
  stages: z.array(stageSchema),
  activeStageId: z.number().int(),
  phase: competitionPhaseSchema,
});
export type CompetitionDetail = z.infer<typeof competitionDetailSchema>;

export const presetFieldSchema = z.object({
  label: z.string(),
  name: z.union([z.enum(REG_FIELDS.map((f) => f.name) as [RegFieldName, ...RegFieldName[]]), customFieldName]),
  type: z.string().optional(),
  description: z.string().nullish(),
  options: z.array(z.string()).optional(),
  otherParams: z.object({ required: z.boolean() }),
});
const _presetFieldAgrees: Same<z.infer<typeof presetFieldSchema>, PresetField> = true;
void _presetFieldAgrees;

export const presetSchema = z.object({
  id: z.number().int(),
  competitionId: z.number().int(),
  menuCode: z.enum(MENU_CODES),
  name: z.string(),
  enable: z.boolean(),
  enableStartTime: z.string().nullable(),
  enableEndTime: z.string().nullable(),
  deadlineStageId: z.number().int().nullable(),
  fieldList: z.array(presetFieldSchema),
});
const _presetAgrees: Same<z.infer<typeof presetSchema>, Preset> = true;
void _presetAgrees;

/** `PUT /api/competition/audit/{id}`: what the approval did to the competition's questions. */
export const approveResultSchema = z.object({
  /** Questions approved with the competition: those that can be scored. */
  questionsApproved: z.array(z.number().int()),
  /** Questions still waiting for their own review (no evaluation or no answer file yet). */
  questionsWaiting: z.array(z.number().int()),
});
export type ApproveResult = z.infer<typeof approveResultSchema>;
