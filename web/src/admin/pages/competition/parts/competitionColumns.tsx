import { fenToYuan, type CompetitionListItem } from '@contest/shared';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { formatMinute } from '../../../../common/time.ts';
import { PhaseTag } from '../../../../common/PhaseTag.tsx';
import { AuditStatusTag } from './AuditStatusTag.tsx';

/** The columns the manager's and the auditor's competition lists share. */
export const COMPETITION_COLUMNS: ColumnsType<CompetitionListItem> = [
  { title: '竞赛名称', width: 220, render: (_, c) => <Link to={`/competition/view/${c.id}`}>{c.name}</Link> },
  { title: '品牌', dataIndex: 'brandShortName', width: 110 },
  { title: '类型', dataIndex: 'typeName', width: 100 },
  { title: '主办组织', dataIndex: 'orgName', width: 150 },
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
  { title: '报名费（元）', width: 110, align: 'right', render: (_, c) => (c.fee === 0 ? '免费' : fenToYuan(c.fee)) },
  { title: '审核状态', width: 90, render: (_, c) => <AuditStatusTag status={c.auditStatus} /> },
  { title: '竞赛状态', width: 150, render: (_, c) => <PhaseTag competition={c} next /> },
  { title: '队伍数', dataIndex: 'teamNum', width: 80, align: 'right' },
];
