import { ACTION_CODES, AUDIT_STATUS, EDITOR_TABS, type EditorTab } from '@contest/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Badge, Button, Card, Skeleton, Space, Tabs, Tooltip } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { usePermissions } from '#src/common/auth.ts';
import { useIdParam } from '../../components/useIdParam.ts';
import { PhaseTag } from '#src/common/PhaseTag.tsx';
import { AuditStatusTag } from './parts/AuditStatusTag.tsx';
import { CompetitionForm } from './parts/CompetitionForm.tsx';
import { QuestionsPanel } from './parts/QuestionsPanel.tsx';
import { PresetsPanel } from './parts/PresetsPanel.tsx';
import { ReadinessCard, readinessSummary } from './parts/ReadinessCard.tsx';
import { StagesPanel } from './parts/StagesPanel.tsx';
import { ALLOWED, useCompetitionActions } from './parts/useCompetitionActions.tsx';
import { competitionDetailKeys } from '#src/api/competitions.ts';
import { editionApi } from '#src/api/editions.ts';
import { useCompetition } from './parts/useCompetition.ts';
import { useReadiness } from './parts/useReadiness.ts';
import { useUnsavedGuard } from './parts/useUnsavedGuard.ts';

const isTab = (v: string | null): v is EditorTab => v !== null && v in EDITOR_TABS;

/** Creates a competition (`/competition/edit/0`) or edits one with its stages and menu presets. */
export default function CompetitionEditPage() {
  const id = useIdParam('competitionId');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const client = useQueryClient();
  const canEdit = usePermissions().has(ACTION_CODES.competitionEdit);
  const competition = useCompetition(id);
  const actions = useCompetitionActions();
  // A link may open a tab directly (`?tab=questions`), as the checklist's items on the view page do.
  const [searchParams] = useSearchParams();
  const asked = searchParams.get('tab');
  const [tab, setTab] = useState<EditorTab>(isTab(asked) ? asked : 'basic');
  useEffect(() => {
    if (isTab(asked)) setTab(asked);
  }, [asked]);
  const readiness = useReadiness(id || null);
  // The server's refusal of a submission for audit, shown on the checklist until closed.
  const [refusal, setRefusal] = useState<string | null>(null);
  // The menus form tells whether it holds unsaved changes; bumping the reset key drops them.
  const [menusDirty, setMenusDirty] = useState(false);
  const [menusResetKey, setMenusResetKey] = useState(0);
  const onMenusDirty = useCallback((dirty: boolean) => setMenusDirty(dirty), []);
  const { confirmLeave } = useUnsavedGuard(menusDirty, '菜单设置');

  if (id === null || competition.isError) return <Navigate to="/404" replace />;
  if (id === 0 && !canEdit) return <Navigate to="/401" replace />;
  if (competition.isLoading)
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );

  const c = competition.data;
  // Under audit nothing changes: the auditor judges what was submitted.
  const editable = canEdit && (!c || c.auditStatus !== AUDIT_STATUS.pending);

  /** Goes elsewhere (another tab of the editor, another page) once unsaved menu changes are saved or dropped. */
  async function leaveMenus(go: () => void) {
    if (!(await confirmLeave())) return;
    if (menusDirty) {
      setMenusResetKey((k) => k + 1);
      setMenusDirty(false);
    }
    go();
  }

  /** Switches tab, asking first when the menus form holds unsaved changes. */
  const goTab = (next: EditorTab) => (tab === 'presets' && next !== tab ? leaveMenus(() => setTab(next)) : setTab(next));
  const gaps = readiness.data && !readiness.data.ready ? readinessSummary(readiness.data) : null;

  async function saved(savedId: number) {
    if (c) {
      void message.success('竞赛已保存');
      await client.invalidateQueries({ queryKey: competitionDetailKeys.detail(savedId) });
    } else {
      void message.success('竞赛已创建，可继续设置阶段和菜单');
      navigate(`/competition/edit/${savedId}`, { replace: true });
    }
  }

  return (
    <Card
      title={
        <Space wrap>
          {c ? `编辑竞赛：${c.name}` : '新建竞赛'}
          {c && <AuditStatusTag status={c.auditStatus} />}
          {/* Before going online the audit state says it all (the phase would repeat 草稿 / 审核中). */}
          {c && (c.auditStatus === AUDIT_STATUS.online || c.auditStatus === AUDIT_STATUS.offline) && <PhaseTag competition={c} next />}
        </Space>
      }
      extra={
        <Space wrap>
          {c && canEdit && ALLOWED.publish(c.auditStatus) && (
            // What still blocks the audit is on the checklist below; the button says it too and waits for it.
            <Tooltip title={gaps}>
              <Button
                type="primary"
                disabled={Boolean(gaps)}
                onClick={() => {
                  // The auditor judges what is saved: unsaved menus would not be part of it.
                  if (!menusDirty) {
                    setRefusal(null);
                    return actions.publish(c, (err) => {
                      setRefusal(err.message);
                      void readiness.refetch();
                    });
                  }
                  setTab('presets');
                  void message.warning('菜单设置有未保存的修改，请先保存或重置后再提交审核');
                }}
              >
                提交审核
              </Button>
            </Tooltip>
          )}
          {c && <Button onClick={() => leaveMenus(() => navigate(`/competition/view/${c.id}`))}>查看</Button>}
          <Button onClick={() => leaveMenus(() => navigate('/competition/manager'))}>返回列表</Button>
        </Space>
      }
    >
      {c?.auditStatus === AUDIT_STATUS.rejected && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message="审核未通过"
          description={`驳回原因：${c.auditReply ?? '（未填写）'}。修改后可再次提交审核。`}
        />
      )}
      {c?.auditStatus === AUDIT_STATUS.pending && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} message="竞赛正在审核中，审核结果出来之前不能修改。" />
      )}
      {c?.auditStatus === AUDIT_STATUS.draft && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="草稿：按下方「上线准备」补齐竞赛信息、菜单和赛题后提交审核，审核通过后竞赛在前台上线。"
        />
      )}
      {c && (
        <div style={{ marginBottom: 16 }}>
          <ReadinessCard
            readiness={readiness.data}
            loading={readiness.isLoading}
            onFix={editable ? goTab : undefined}
            refusal={refusal}
            onCloseRefusal={() => setRefusal(null)}
            title={ALLOWED.publish(c.auditStatus) ? '上线准备' : '竞赛检查'}
            onRecheck={
              editable
                ? (key) => void editionApi.recheck(c.id, key).then((r) => client.setQueryData(competitionDetailKeys.part(c.id, 'readiness'), r))
                : undefined
            }
          />
        </div>
      )}
      <Tabs
        activeKey={tab}
        onChange={(next) => goTab(next as EditorTab)}
        items={[
          {
            key: 'basic',
            label: '基本信息',
            // Keyed by id: after creation the form starts again from the saved competition.
            children: <CompetitionForm key={c?.id ?? 0} competition={c} editable={editable} onSaved={saved} />,
          },
          {
            key: 'stages',
            label: '竞赛阶段',
            disabled: !c,
            children: c && <StagesPanel competitionId={c.id} editable={editable} />,
          },
          {
            key: 'presets',
            label: (
              <Badge dot={menusDirty} offset={[6, 0]} title={menusDirty ? '有未保存的修改' : undefined}>
                菜单设置
              </Badge>
            ),
            disabled: !c,
            children: c && (
              <PresetsPanel
                competitionId={c.id}
                editable={editable}
                lockedReason={
                  c.auditStatus === AUDIT_STATUS.pending ? '竞赛正在审核中，菜单设置暂不能修改；审核结果出来后（通过或驳回）即可再修改。' : undefined
                }
                resetKey={menusResetKey}
                onDirtyChange={onMenusDirty}
              />
            ),
          },
          {
            key: 'questions',
            label: '赛题',
            disabled: !c,
            children: c && <QuestionsPanel competitionId={c.id} />,
          },
        ]}
      />
    </Card>
  );
}
