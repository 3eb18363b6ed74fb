import { z } from 'zod';
import { pageQuery } from './common.ts';

/** One completed upload of a team's works; the last one completed before the deadline is the one that counts. */
export interface WorkVersion {
  id: number;
  competitionId: number;
  questionId: number;
  teamId: number;
  teamNo: string;
  teamName: string;
  version: number;
  fileUri: string;
  fileName: string;
  size: number;
  sha256: string;
  username: string;
  completedAt: string;
  counts: boolean;
}

/** What the works tab needs before an upload: the limits and the window. */
export interface WorksRules {
  questionId: number;
  questionTitle: string;
  maxBytes: number;
  types: string[];
  open: boolean;
  /** Why works cannot be submitted now, naming the time that matters (「提交作品已于 … 截止」); null while open. */
  refusal: string | null;
  deadline: string | null;
}

export const worksQuery = z.object({ teamId: z.coerce.number().int().positive().optional() });
export const worksPageQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  export: z.enum(['xlsx']).optional(),
});
export type WorksPageQuery = z.infer<typeof worksPageQuery>;

/** The extension of a file name, lower case, without the dot. */
export const extensionOf = (name: string) => (/\.([a-z0-9]+)$/i.exec(name)?.[1] ?? '').toLowerCase();
