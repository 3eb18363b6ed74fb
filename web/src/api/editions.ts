import type { CloneBody, Edition, ImportReport, Readiness } from '@contest/shared';
import { downloadBlob, formOf, http, saveBlob } from '../common/http.ts';

/** Every year again (issue 38): 复制为新一届, 往届, and a competition's archive (`/api/competition/clone|editions|export|import`). */
export const editionKeys = {
  editions: (competitionId: number) => ['editions', competitionId] as const,
};

export const editionApi = {
  clone: (id: number, body: CloneBody) => http.post<{ id: number }>(`/api/competition/clone/${id}`, body),
  editions: (id: number) => http.get<Edition[]>(`/api/competition/editions/public/${id}`),
  /** Downloads the competition's archive (manifest and files) under the name the server gives it. */
  exportArchive: async (id: number) => {
    const got = await downloadBlob(`/api/competition/export/${id}`);
    if (got) saveBlob(got.blob, got.fileName);
  },
  /** Into `brandId` (else matched by name) and, for the platform, the organisation `orgId`. */
  importArchive: (file: File, target: { brandId?: number; orgId?: number }) =>
    http.post<ImportReport>('/api/competition/import', formOf(file), {
      params: Object.fromEntries(Object.entries(target).filter(([, v]) => v !== undefined)),
      silent: true,
    }),
  /** A copied edition's organiser says its dates or fee are rechecked; answers the checklist as it now stands. */
  recheck: (id: number, key: 'dates' | 'fee') => http.put<Readiness>(`/api/competition/recheck/${id}`, undefined, { params: { key } }),
};
