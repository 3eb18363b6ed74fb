import { AUDIT_STATUS } from '@contest/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useState } from 'react';
import { ERROR_TOAST_SECONDS, HttpError, http } from '../../../../common/http.ts';
import { ReasonModal } from '../../../components/ReasonModal.tsx';
import { useConfirm } from '../../../components/useConfirm.ts';

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
  const client = useQueryClient();
  const [rejecting, setRejecting] = useState<Target | null>(null);

  const reload = () =>
    Promise.all(['competitions', 'auditCompetitions', 'competition'].map((key) => client.invalidateQueries({ queryKey: [key] })));

  const step = (content: string, run: () => Promise<unknown>, done: string, danger = false) =>
    confirm(
      content,
      async () => {
        await run();
        void message.success(done);
        await reload();
      },
      { danger },
    );

  return {
    /**
     * Submits for audit. With `onRefused`, a refusal for what the competition lacks (409, the list of gaps) goes there
     * instead of a toast, for the page to show beside its checklist.
     */
    publish: (c: Target, onRefused?: (err: HttpError) => void) =>
      step(
        `确定将“${c.name}”提交审核吗？审核期间不能修改竞赛信息、阶段和菜单设置。`,
        async () => {
          try {
            await http.put(`/api/competition/publish/${c.id}`, undefined, { silent: Boolean(onRefused) });
          } catch (err) {
            if (err instanceof HttpError && onRefused) {
              if (err.status === 409 && err.fields) onRefused(err);
              else void message.error(err.message, ERROR_TOAST_SECONDS);
            }
            throw err;
          }
        },
        '已提交审核，审核结果将以站内消息通知您',
      ),
    off: (c: Target) => step(`确定下线“${c.name}”吗？下线后前台将不再显示该竞赛。`, () => http.post(`/api/competition/${c.id}/off`), '竞赛已下线', true),
    on: (c: Target) => step(`确定重新上线“${c.name}”吗？`, () => http.post(`/api/competition/${c.id}/on`), '竞赛已上线'),
    remove: (c: Target) =>
      step(`确定删除“${c.name}”吗？竞赛的阶段和菜单设置将一并删除，且不可恢复。`, () => http.delete(`/api/competition/${c.id}`), '竞赛已删除', true),
    /** Approves; `questions` says what happens to its questions (by default, in general words). */
    approve: (c: Target, questions = '已设置评分和答案文件的赛题一并审核通过、对参赛者可见') =>
      confirm(
        `确定审核通过“${c.name}”吗？通过后竞赛立即上线，${questions}。组织方将收到站内消息。`,
        async () => {
          const { questionsApproved } = await http.put<{ questionsApproved: number[] }>(`/api/competition/audit/${c.id}`);
          void message.success(questionsApproved.length ? `审核通过，竞赛已上线，${questionsApproved.length} 道赛题一并审核通过` : '审核通过，竞赛已上线');
          await reload();
        },
      ),
    reject: (c: Target) => setRejecting(c),
    rejectModal: rejecting && (
      <ReasonModal
        title={`驳回竞赛：${rejecting.name}`}
        onSubmit={async (reply) => {
          await http.put(`/api/competition/audit/reply/${rejecting.id}`, undefined, { params: { reply } });
          void message.success('已驳回，组织方将收到站内消息');
          await reload();
        }}
        onClose={() => setRejecting(null)}
      />
    ),
  };
}
