import {
  MAX_LIMIT,
  type Competition,
  type CompetitionPhase,
  type CompetitionBody,
  type CompetitionListItem,
  type ManageListQuery,
  type Page,
  type Preset,
  type PresetBatchBody,
  type Readiness,
  type Stage,
  type StageBody,
} from '@contest/shared';
import { http } from '../common/http.ts';
import { confirmOptions, type Confirmable } from './confirmable.ts';
import { params, type ListParams } from './list.ts';

/** How a change of a competition's dates, stages or menus is sent: `reopen` once the organiser confirmed reopening. */
export type DateChange = Confirmable<'reopen'>;
const dateChange = (o?: DateChange) => confirmOptions('reopen', o);

/** A competition with its stages, as its public read answers it. */
export type CompetitionDetail = Competition & { stages: Stage[]; activeStageId: number; phase: CompetitionPhase };

/**
 * Keys of one competition in the back office, under one root, so that a workflow step refreshes the competition, its
 * stages, presets, questions and readiness by invalidating `competitionDetailKeys.detail(id)` (or every competition's
 * by `competitionDetailKeys.all`).
 */
export const competitionDetailKeys = {
  all: ['competition'] as const,
  detail: (id: number) => [...competitionDetailKeys.all, id],
  part: (id: number, part: 'stages' | 'presets' | 'questions' | 'readiness') => [...competitionDetailKeys.all, id, part],
};

/** One competition as its organiser and the platform manage it (spec §7 `/api/competition/*`). */
export const competitionDetailApi = {
  /** The public read answers any state to those who may manage the competition. */
  detail: (id: number) => http.get<CompetitionDetail>(`/api/competition/public/${id}`),
  readiness: (id: number) => http.get<Readiness>(`/api/competition/readiness/${id}`),
  create: (body: CompetitionBody) => http.post<{ id: number }>('/api/competition/', body),
  update: (id: number, body: CompetitionBody, o?: DateChange) => http.put<void>(`/api/competition/${id}`, body, dateChange(o)),
  /** Submits for audit; silent when the caller shows the refusal itself. */
  publish: (id: number, silent = false) => http.put<void>(`/api/competition/publish/${id}`, undefined, { silent }),
  approve: (id: number) => http.put<{ questionsApproved: number[] }>(`/api/competition/audit/${id}`),
  reject: (id: number, reply: string) => http.put<void>(`/api/competition/audit/reply/${id}`, undefined, { params: { reply } }),
  off: (id: number) => http.post<void>(`/api/competition/${id}/off`),
  on: (id: number) => http.post<void>(`/api/competition/${id}/on`),
  remove: (id: number) => http.delete<void>(`/api/competition/${id}`),
};

/** The competition's stages (spec §7 `/api/competition/stages/*`). */
export const stageApi = {
  list: (competitionId: number) => http.get<Stage[]>(`/api/competition/stages/public/list/${competitionId}`),
  create: (competitionId: number, body: StageBody, o?: DateChange) => http.post<void>(`/api/competition/stages/${competitionId}`, body, dateChange(o)),
  update: (id: number, body: StageBody, o?: DateChange) => http.put<void>(`/api/competition/stages/${id}`, body, dateChange(o)),
  remove: (id: number, o?: DateChange) => http.delete<void>(`/api/competition/stages/${id}`, dateChange(o)),
};

/** The competition's menu presets (spec §7 `/api/competition/preset/*`). */
export const presetApi = {
  list: (competitionId: number) => http.get<Preset[]>(`/api/competition/preset/public/list/${competitionId}`),
  /** Saves the changed menus together or not at all; answers every preset as now stored. */
  saveBatch: (competitionId: number, body: PresetBatchBody, o?: DateChange) =>
    http.put<Preset[]>(`/api/competition/preset/batch/${competitionId}`, body, dateChange(o)),
};

/** The public competition list's filters: a brand's competitions, and a status tab (`''` all). */
export interface PublicCompetitionListParams {
  brandId: string | undefined;
  status: string;
  page: number;
  limit: number;
}

/**
 * Competitions as the participant site reads them (spec §7 `/api/competition/public/*`). The site's first screen loads
 * this file: types only from the shared package, no zod (ARCHITECTURE §9).
 */
export const publicCompetitionKeys = {
  list: ({ brandId, status, ...paging }: PublicCompetitionListParams) => ['competitions', brandId, status, paging] as const,
  detail: (id: number) => competitionDetailKeys.detail(id),
  presets: (id: number) => competitionDetailKeys.part(id, 'presets'),
  memberNum: (id: number) => ['memberNum', id] as const,
};

export const publicCompetitionApi = {
  list: (q: PublicCompetitionListParams) => http.get<Page<CompetitionListItem>>('/api/competition/public/list', { ...q }),
  /** Silent, as its presets and member count: the page says when the competition is missing. */
  detail: (id: number) => http.get<CompetitionDetail>(`/api/competition/public/${id}`, undefined, { silent: true }),
  presets: (id: number) => http.get<Preset[]>(`/api/competition/preset/public/list/${id}`, undefined, { silent: true }),
  memberNum: (id: number) => http.get<number>(`/api/team/statistics/public/statisticsMemberNum/${id}`, undefined, { silent: true }),
};

/** The competitions of the back office's lists (spec §7 `/api/competition/listAuth`, `/list`). */
export type CompetitionListParams = ListParams<ManageListQuery>;

export const competitionKeys = {
  all: ['competitions'] as const,
  /** The competitions the caller manages (`listAuth`). */
  managed: (q: CompetitionListParams) => [...competitionKeys.all, q] as const,
  /** Every organisation's competitions, for the platform's audit. */
  auditAll: ['auditCompetitions'] as const,
  audit: (q: CompetitionListParams) => [...competitionKeys.auditAll, q] as const,
  /** The competitions the caller manages, to filter lists by. */
  options: ['competitionOptions'] as const,
};

export const competitionApi = {
  managed: (q: CompetitionListParams) => http.get<Page<CompetitionListItem>>('/api/competition/listAuth', params(q)),
  audit: (q: CompetitionListParams) => http.get<Page<CompetitionListItem>>('/api/competition/list', params(q)),
  options: () => http.get<Page<CompetitionListItem>>('/api/competition/listAuth', { limit: MAX_LIMIT }),
};
