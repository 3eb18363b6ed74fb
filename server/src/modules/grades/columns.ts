import { totalText } from '@contest/shared';
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

/** The team's group (issue 36), last so that the columns before it stay where they were. */
export const GROUP_COLUMN: Column<ExportRow> = { header: '组别（名次按组别分别排列）', value: (g) => g.groupName ?? '', width: 14 };

/** The grade workbook (exportGrade): the rank, the team, each judge's total, the scores and the award. */
export const GRADE_COLUMNS: Column<ExportRow>[] = [
  { header: '名次', value: (g) => g.rank ?? '', width: 8 },
  ...TEAM_COLUMNS,
  { header: '各专家评分', value: (g) => g.reviewScores.map((t) => totalText(t, g.maxTotal)).join('、'), width: 24 },
  { header: '评审成绩', value: (g) => g.reviewScore ?? '' },
  { header: '测试成绩', value: (g) => g.testScore ?? '' },
  { header: '测试得分', value: (g) => g.testPoints ?? '' },
  { header: '最终成绩', value: (g) => g.finalScore ?? '' },
  { header: '奖项', value: (g) => g.awardName ?? '' },
  GROUP_COLUMN,
];
