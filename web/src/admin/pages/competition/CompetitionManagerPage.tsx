import { ACTION_CODES, type CompetitionListItem } from '@contest/shared';
import { Button, Card, Space, Table } from 'antd';
import { useState } from 'react';
import { editionApi } from '#src/api/editions.ts';
import { CloneEditionModal, ImportArchiveModal } from './parts/EditionDialogs.tsx';
import { useNavigate } from 'react-router';
import { usePermissions } from '#src/common/auth.ts';
import { competitionApi, competitionKeys, type CompetitionListParams } from '#src/api/competitions.ts';
import { useListState, usePagedList } from '#src/common/usePagedList.ts';
import { COMPETITION_COLUMNS } from './parts/competitionColumns.tsx';
import { CompetitionFilters } from './parts/CompetitionFilters.tsx';
import { ALLOWED, useCompetitionActions } from './parts/useCompetitionActions.tsx';

/** The competitions the caller manages: all of them for the platform, else their organisation's. */
export default function CompetitionManagerPage() {
  const navigate = useNavigate();
  const canEdit = usePermissions().has(ACTION_CODES.competitionEdit);
  const list = usePagedList(useListState<CompetitionListParams>(), {
    queryKey: competitionKeys.managed,
    queryFn: competitionApi.managed,
    emptyText: '暂无竞赛',
  });
  const actions = useCompetitionActions();
  const [cloning, setCloning] = useState<CompetitionListItem | null>(null);
  const [importing, setImporting] = useState(false);

  return (
    <Card
      title="竞赛管理"
      extra={
        canEdit && (
          <Space wrap>
            <Button onClick={() => setImporting(true)}>导入竞赛包</Button>
            <Button type="primary" onClick={() => navigate('/competition/edit/0')}>
              新建竞赛
            </Button>
          </Space>
        )
      }
    >
      <CompetitionFilters onSearch={list.search} />
      <Table<CompetitionListItem>
        {...list.table}
        scroll={{ x: 1200 }}
        columns={[
          ...COMPETITION_COLUMNS,
          {
            title: '操作',
            key: 'actions',
            fixed: 'right',
            width: 260,
            render: (_, c) => {
              const s = c.auditStatus;
              return (
                <Space size={0} wrap>
                  <Button type="link" size="small" onClick={() => navigate(`/competition/view/${c.id}`)}>
                    查看
                  </Button>
                  {canEdit && ALLOWED.edit(s) && (
                    <Button type="link" size="small" onClick={() => navigate(`/competition/edit/${c.id}`)}>
                      编辑
                    </Button>
                  )}
                  {canEdit && ALLOWED.publish(s) && (
                    <Button type="link" size="small" onClick={() => actions.publish(c)}>
                      提交审核
                    </Button>
                  )}
                  {canEdit && ALLOWED.off(s) && (
                    <Button type="link" size="small" danger onClick={() => actions.off(c)}>
                      下线
                    </Button>
                  )}
                  {canEdit && ALLOWED.on(s) && (
                    <Button type="link" size="small" onClick={() => actions.on(c)}>
                      上线
                    </Button>
                  )}
                  {canEdit && (
                    <Button type="link" size="small" onClick={() => setCloning(c)}>
                      复制为新一届
                    </Button>
                  )}
                  {canEdit && (
                    <Button type="link" size="small" onClick={() => void editionApi.exportArchive(c.id)}>
                      导出
                    </Button>
                  )}
                  {canEdit && ALLOWED.remove(s) && (
                    <Button type="link" size="small" danger onClick={() => actions.remove(c)}>
                      删除
                    </Button>
                  )}
                </Space>
              );
            },
          },
        ]}
      />
      {cloning && <CloneEditionModal competition={cloning} onClose={() => setCloning(null)} />}
      {importing && <ImportArchiveModal onClose={() => setImporting(false)} />}
    </Card>
  );
}
