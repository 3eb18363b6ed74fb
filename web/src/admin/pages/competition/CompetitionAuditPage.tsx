import { ACTION_CODES, AUDIT_STATUS, type CompetitionListItem } from '@contest/shared';
import { Button, Card, Space, Table } from 'antd';
import { useNavigate } from 'react-router';
import { usePermissions } from '#src/common/auth.ts';
import { competitionApi, competitionKeys, type CompetitionListParams } from '#src/api/competitions.ts';
import { useListState, usePagedList } from '#src/common/usePagedList.ts';
import { COMPETITION_COLUMNS } from './parts/competitionColumns.tsx';
import { CompetitionFilters } from './parts/CompetitionFilters.tsx';
import { ALLOWED, useCompetitionActions } from './parts/useCompetitionActions.tsx';

/** Competitions waiting for the platform's audit (other states can be looked up too). */
export default function CompetitionAuditPage() {
  const navigate = useNavigate();
  const canAudit = usePermissions().has(ACTION_CODES.competitionAudit);
  const source = useListState<CompetitionListParams>({ auditStatus: AUDIT_STATUS.pending });
  const list = usePagedList(source, {
    queryKey: competitionKeys.audit,
    queryFn: competitionApi.audit,
    emptyText: source.query.auditStatus === AUDIT_STATUS.pending ? '暂无待审核的竞赛' : '暂无竞赛',
  });
  const actions = useCompetitionActions();

  return (
    <Card title="竞赛审核">
      <CompetitionFilters initial={{ auditStatus: AUDIT_STATUS.pending }} onSearch={list.search} />
      <Table<CompetitionListItem>
        {...list.table}
        scroll={{ x: 1150 }}
        columns={[
          ...COMPETITION_COLUMNS,
          {
            title: '操作',
            key: 'actions',
            fixed: 'right',
            width: 170,
            render: (_, c) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => navigate(`/competition/view/${c.id}`)}>
                  查看详情
                </Button>
                {canAudit && ALLOWED.audit(c.auditStatus) && (
                  <>
                    <Button type="link" size="small" onClick={() => actions.approve(c)}>
                      通过
                    </Button>
                    <Button type="link" size="small" danger onClick={() => actions.reject(c)}>
                      驳回
                    </Button>
                  </>
                )}
              </Space>
            ),
          },
        ]}
      />
      {actions.rejectModal}
    </Card>
  );
}
