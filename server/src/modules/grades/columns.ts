import type { Column } from '../../http/xlsx.ts';
import type { ExportRow } from './service.ts';

const names = (list: { name: string }[]) => list.map((p) => p.name).join('、');

/** The team and its people, the columns the grade export and awards' prize export share. */
export const TEAM_COLUMNS: Column<ExportRow>[] = [
  { header: '队伍编号', value: (g) => g.teamNo },
  { header: '队伍名称', value: (g) => g.teamName, width: 24 },
  { header: '队员', value: (g) => names(g.members), width: 30 },
  { header: '学校', value: (g) => g.schools.join('、'), width: 30 },
  { header: '指导教师', value: (g) => names(g.teachers), width: 20 },
];
