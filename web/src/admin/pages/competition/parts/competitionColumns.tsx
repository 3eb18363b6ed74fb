import { fenToYuan, type CompetitionListItem } from '@contest/shared';
import { Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { formatMinute } from '#src/common/time.ts';
import { PhaseTag } from '#src/common/PhaseTag.tsx';
import { AuditStatusTag } from './AuditStatusTag.tsx';

/** A long text cut to its column, whole in a tooltip. */
const cut = (text: string | null | undefined) => (
  <Tooltip title={text} placement="topLeft">
    {text}
  </Tooltip>
);

/**
 * The columns the manager's and the auditor's competition lists share. The name and what decides an action (fee, audit
 * state, phase, team count) come first so that at 1280 px they show beside the fixed action column without scrolling;
 * brand, type, organiser and registration time follow.
 */
export const COMPETITION_COLUMNS: ColumnsType<CompetitionListItem> = [
  {
    title: '竞赛名称',
    width: 200,
    ellipsis: { showTitle: false },
    render: (_, c) => (
      <Tooltip title={c.name} placement="topLeft">
        <Link to={`/competition/view/${c.id}`}>{c.name}</Link>
      </Tooltip>
    ),
  },
  { title: '报名费（元）', width: 110, align: 'right', render: (_, c) => (c.fee === 0 ? '免费' : fenToYuan(c.fee)) },
  { title: '审核状态', width: 96, render: (_, c) => <AuditStatusTag status={c.auditStatus} /> },
  { title: '竞赛状态', width: 150, render: (_, c) => <PhaseTag competition={c} next /> },
  { title: '队伍数', dataIndex: 'teamNum', width: 76, align: 'right' },
  { title: '品牌', dataIndex: 'brandShortName', width: 110, ellipsis: { showTitle: false }, render: cut },
  { title: '类型', dataIndex: 'typeName', width: 100, ellipsis: { showTitle: false }, render: cut },
  { title: '主办组织', dataIndex: 'orgName', width: 150, ellipsis: { showTitle: false }, render: cut },
  {
    title: '报名时间',
    width: 170,
    render: (_, c) => (
      <>
        {formatMinute(c.regStartTime)}
        <br />至 {formatMinute(c.regEndTime)}
      </>
    ),
  },
];
