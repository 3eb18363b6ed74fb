import { z } from 'zod';
import { selectedIds } from './batch.ts';
import { pageQuery } from './common.ts';

/** One completed upload of a team's works; the last one completed before the deadline is the one that counts. */
export const workVersionSchema = z.object({
  id: z.number().int(),
  competitionId: z.number().int(),
  questionId: z.number().int(),
  teamId: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
  version: z.number().int(),
  fileUri: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  username: z.string(),
  completedAt: z.string(),
  counts: z.boolean(),
});
export type WorkVersion = z.infer<typeof workVersionSchema>;

/** What the works tab needs before an upload: the limits and the window. */
export const worksRulesSchema = z.object({
  questionId: z.number().int(),
  questionTitle: z.string(),
  maxBytes: z.number().int(),
  types: z.array(z.string()),
  open: z.boolean(),
  /** Why works cannot be submitted now, naming the time that matters (「提交作品已于 … 截止」); null while open. */
  refusal: z.string().nullable(),
  deadline: z.string().nullable(),
});
export type WorksRules = z.infer<typeof worksRulesSchema>;

export const worksQuery = z.object({ teamId: z.coerce.number().int().positive().optional() });
export const worksPageQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  /** Only each team's counting version (its last). */
  counting: z.enum(['1'], { error: '筛选条件不正确' }).optional(),
  /** Only these versions (comma-separated ids), e.g. to export the selected works. */
  ids: selectedIds('作品编号格式不正确'),
  export: z.enum(['xlsx']).optional(),
});
/** `GET /api/review/works/export/{questionId}`: the zip of every team's counted version, or of the selected versions. */
export const worksZipQuery = z.object({ ids: selectedIds('作品编号格式不正确') });
export type WorksPageQuery = z.infer<typeof worksPageQuery>;

/**
 * A work's file name in a download: the counted version keeps its name, an earlier one carries its number, so the
 * versions of one team lie side by side in the team's folder.
 */
export function versionedFileName(v: Pick<WorkVersion, 'fileName' | 'version' | 'counts'>): string {
  if (v.counts) return v.fileName;
  const dot = v.fileName.lastIndexOf('.');
  return dot > 0 ? `${v.fileName.slice(0, dot)}(V${v.version})${v.fileName.slice(dot)}` : `${v.fileName}(V${v.version})`;
}

/** The extension of a file name, lower case, without the dot. */
export const extensionOf = (name: string) => (/\.([a-z0-9]+)$/i.exec(name)?.[1] ?? '').toLowerCase();
