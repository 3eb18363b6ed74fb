import { AUDIT_STATUS } from '@contest/shared';
import { App } from 'antd';
import { useState } from 'react';
import { competitionDetailApi, competitionDetailKeys, competitionKeys } from '#src/api/competitions.ts';
import { ERROR_TOAST_SECONDS, HttpError } from '#src/common/http.ts';
import { ReasonModal } from '#src/admin/components/ReasonModal.tsx';
import { useConfirm } from '#src/admin/components/useConfirm.ts';
import { useListMutation } from '#src/common/usePagedList.ts';

interface Target {
  id: number;
  name: string;
}

const { draft, rejected, online, offline, pending } = AUDIT_STATUS;

/** Which workflow steps a competition in `status` allows (ARCHITECTURE: audit states 0–4). */
export const ALLOWED = {
  edit: (status: number) => status === draft || status === rejected || status === online || status === offline,
  publish: (status: number) => status === draft || status === rejected,
  off: (status: number) => status === online,
  on: (status: number) => status === offline,
  remove: (status: number) => status === draft || status === rejected,
  audit: (status: number) => status === pending,
};

/**
 * The audit workflow's steps (spec §7: publish, audit, audit reply, off, on) plus delete, each behind
 * a confirmation. After a step every competition list and the competition itself are loaded again.
 * Render `rejectModal` where the page's dialogs go.
 */
export function useCompetitionActions() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const [rejecting, setRejecting] = useState<Target | null>(null);

  // Every competition list and every competition's own data.
  const lists = [competitionKeys.all, competitionKeys.auditAll, competitionDetailKeys.all];
  const told = (text: string) => () => void message.success(text);
  const publishing = useListMutation(
    ({ id, silent }: { id: number; silent: boolean }) => competitionDetailApi.publish(id, silent),
    lists,
    told('已提交审核，审核结果将以站内消息通知您'),
  );
  const off = useListMutation(competitionDetailApi.off, lists, told('竞赛已下线'));
  const on = useListMutation(competitionDetailApi.on, lists, told('竞赛已上线'));
  const removal = useListMutation(competitionDetailApi.remove, lists, told('竞赛已删除'));
  const approval = useListMutation(
    competitionDetailApi.approve,
    lists,
    ({ questionsApproved }) =>
      void message.success(questionsApproved.length ? `审核通过，竞赛已上线，${questionsApproved.length} 道赛题一并审核通过` : '审核通过，竞赛已上线'),
  );
  const rejection = useListMutation(
    ({ id, reply }: { id: number; reply: string }) => competitionDetailApi.reject(id, reply),
    lists,
    told('已驳回，组织方将收到站内消息'),
  );

  return {
    /**
     * Submits for audit. With `onRefused`, a refusal for what the competition lacks (409, the list of gaps) goes there
     * instead of a toast, for the page to show beside its checklist.
     */
    publish: (c: Target, onRefused?: (err: HttpError) => void) =>
      confirm(`确定将“${c.name}”提交审核吗？审核期间不能修改竞赛信息、阶段和菜单设置。`, async () => {
        try {
          await publishing.mutateAsync({ id: c.id, silent: Boolean(onRefused) });
        } catch (err) {
          if (err instanceof HttpError && onRefused) {
            if (err.status === 409 && err.fields) onRefused(err);
            else void message.error(err.message, ERROR_TOAST_SECONDS);
          }
          throw err;
        }
      }),
    off: (c: Target) => confirm(`确定下线“${c.name}”吗？下线后前台将不再显示该竞赛。`, () => off.mutateAsync(c.id), { danger: true }),
    on: (c: Target) => confirm(`确定重新上线“${c.name}”吗？`, () => on.mutateAsync(c.id)),
    remove: (c: Target) => confirm(`确定删除“${c.name}”吗？竞赛的阶段和菜单设置将一并删除，且不可恢复。`, () => removal.mutateAsync(c.id), { danger: true }),
    /** Approves; `questions` says what happens to its questions (by default, in general words). */
    approve: (c: Target, questions = '已设置评分和答案文件的赛题一并审核通过、对参赛者可见') =>
      confirm(`确定审核通过“${c.name}”吗？通过后竞赛立即上线，${questions}。组织方将收到站内消息。`, () => approval.mutateAsync(c.id)),
    reject: (c: Target) => setRejecting(c),
    rejectModal: rejecting && (
      <ReasonModal
        title={`驳回竞赛：${rejecting.name}`}
        onSubmit={(reply) => rejection.mutateAsync({ id: rejecting.id, reply })}
        onClose={() => setRejecting(null)}
      />
    ),
  };
}
