import { ACTION_CODES, AUDIT_STATUS, type CompetitionListItem, type ManageListQuery, type Page } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Space, Table } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { usePermissions } from '../../../common/auth.ts';
import { http } from '../../../common/http.ts';
import { pager } from '../../../common/pager.ts';
import { COMPETITION_COLUMNS } from './parts/competitionColumns.tsx';
import { CompetitionFilters } from './parts/CompetitionFilters.tsx';
import { ALLOWED, useCompetitionActions } from './parts/useCompetitionActions.tsx';

/** Competitions waiting for the platform's audit (other states can be looked up too). */
export default function CompetitionAuditPage() {
  const navigate = useNavigate();
  const canAudit = usePermissions().has(ACTION_CODES.competitionAudit);
  const [query, setQuery] = useState<ManageListQuery>({ page: 1, limit: 20, auditStatus: AUDIT_STATUS.pending });
  const actions = useCompetitionActions();

  const competitions = useQuery({
    queryKey: ['auditCompetitions', query],
    queryFn: () => http.get<Page<CompetitionListItem>>('/api/competition/list', { ...query }),
  });

  return (
    <Card title="竞赛审核">
      <CompetitionFilters initial={{ auditStatus: AUDIT_STATUS.pending }} onSearch={(filter) => setQuery({ ...filter, page: 1, limit: query.limit })} />
      <Table<CompetitionListItem>
        rowKey="id"
        loading={competitions.isLoading}
        dataSource={competitions.data?.list}
        scroll={{ x: 1150 }}
        locale={{ emptyText: query.auditStatus === AUDIT_STATUS.pending ? '暂无待审核的竞赛' : '暂无竞赛' }}
        pagination={pager(competitions.data, (page, limit) => setQuery({ ...query, page, limit }))}
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
