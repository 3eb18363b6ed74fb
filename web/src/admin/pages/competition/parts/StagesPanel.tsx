import { WINDOW_KINDS, WINDOW_NAMES, activeStageId, type Stage, type StageBody } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Input, InputNumber, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { competitionDetailKeys, presetApi, stageApi } from '#src/api/competitions.ts';
import { useReopenGuard } from '#src/admin/components/useConfirmedRetry.ts';
import { sysTime } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';
import { DateTimePicker } from '#src/admin/components/DateTimePicker.tsx';
import { FormModal } from '#src/common/FormModal.tsx';
import { useConfirm } from '#src/admin/components/useConfirm.ts';
import { useListMutation } from '#src/common/usePagedList.ts';
import { fromPicker, fromPickerOrNull, toPicker, toPickerOrNull } from '#src/common/beijing.ts';

interface StageValues {
  name: string;
  startDate: Dayjs;
  endDate?: Dayjs | null;
  sort: number;
}

type Editing = { stage: Stage | null } | null;

/** The competition's time line on the site (报名, 初赛, 决赛 ...); the active stage is the last one started. */
export function StagesPanel({ competitionId, editable }: { competitionId: number; editable: boolean }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<Editing>(null);
  const stages = useQuery({
    queryKey: competitionDetailKeys.part(competitionId, 'stages'),
    queryFn: () => stageApi.list(competitionId),
  });
  // The menus that take a stage's end as their deadline, named beside it.
  const presets = useQuery({ queryKey: competitionDetailKeys.part(competitionId, 'presets'), queryFn: () => presetApi.list(competitionId) });
  const deadlinesOf = (stage: Stage) =>
    (presets.data ?? []).filter((p) => p.deadlineStageId === stage.id && (WINDOW_KINDS as readonly string[]).includes(p.menuCode));
  // Stages change the competition's active stage and readiness: everything of the competition is read again.
  const competition = [competitionDetailKeys.detail(competitionId)];
  const active = activeStageId(stages.data ?? [], sysTime());
  // Moving a deadline stage's end after results were published asks first (the server says what it would reopen).
  const guarded = useReopenGuard();

  const saving = useListMutation(
    (body: StageBody) => guarded((o) => (editing?.stage ? stageApi.update(editing.stage.id, body, o) : stageApi.create(competitionId, body, o))),
    competition,
    () => void message.success('阶段已保存'),
  );
  const removal = useListMutation(stageApi.remove, competition, () => void message.success('阶段已删除'));
  const save = (v: StageValues) => saving.mutateAsync({ name: v.name, startDate: fromPicker(v.startDate), endDate: fromPickerOrNull(v.endDate), sort: v.sort });

  const remove = (stage: Stage) => confirm(`确定删除阶段“${stage.name}”吗？`, () => removal.mutateAsync(stage.id), { danger: true });
  const deadlineTags = (stage: Stage) =>
    deadlinesOf(stage).map((p) => (
      <Tag key={p.menuCode} color="orange" title="在「菜单设置」中选择的截止时间">
        {WINDOW_NAMES[p.menuCode as keyof typeof WINDOW_NAMES]}截止
      </Tag>
    ));

  const initial = (stage: Stage | null): Partial<StageValues> =>
    stage
      ? { name: stage.name, startDate: toPicker(stage.startDate), endDate: toPickerOrNull(stage.endDate), sort: stage.sort }
      : { sort: (stages.data?.length ?? 0) + 1 };

  return (
    <>
      {editable && (
        <Button type="primary" style={{ marginBottom: 16 }} onClick={() => setEditing({ stage: null })}>
          添加阶段
        </Button>
      )}
      <Table<Stage>
        rowKey="id"
        loading={stages.isLoading}
        dataSource={stages.data}
        pagination={false}
        locale={{ emptyText: '暂无阶段，前台将不显示赛程时间线。阶段的名称不影响截止时间：选题和提交的截止时间在「菜单设置」中选择' }}
        columns={[
          { title: '排序', dataIndex: 'sort', width: 70 },
          {
            title: '阶段名称',
            render: (_, s) => (
              <>
                {s.name} {s.id === active && <Tag color="blue">当前阶段</Tag>}
                {deadlineTags(s)}
              </>
            ),
          },
          { title: '开始时间', width: 170, render: (_, s) => formatMinute(s.startDate) },
          { title: '结束时间', width: 170, render: (_, s) => (s.endDate ? formatMinute(s.endDate) : '—') },
          ...(editable
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  width: 130,
                  render: (_: unknown, s: Stage) => (
                    <Space size={0}>
                      <Button type="link" size="small" onClick={() => setEditing({ stage: s })}>
                        编辑
                      </Button>
                      <Button
                        type="link"
                        size="small"
                        danger
                        disabled={deadlinesOf(s).length > 0}
                        title={deadlinesOf(s).length ? '该阶段是截止时间，请先在「菜单设置」中改选截止时间' : undefined}
                        onClick={() => remove(s)}
                      >
                        删除
                      </Button>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && (
        <FormModal<StageValues>
          title={editing.stage ? `编辑阶段：${editing.stage.name}` : '添加阶段'}
          initialValues={initial(editing.stage)}
          onSave={save}
          onClose={() => setEditing(null)}
        >
          <Form.Item
            name="name"
            label="阶段名称"
            rules={[
              { required: true, whitespace: true, message: '请输入阶段名称' },
              { max: 50, message: '阶段名称不能超过50个字符' },
            ]}
          >
            <Input placeholder="如 报名、初赛、决赛" />
          </Form.Item>
          <Form.Item name="startDate" label="开始时间" rules={[{ required: true, message: '请选择开始时间' }]}>
            <DateTimePicker />
          </Form.Item>
          <Form.Item
            name="endDate"
            label="结束时间"
            dependencies={['startDate']}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_, value: Dayjs | null) => {
                  const start = getFieldValue('startDate') as Dayjs | null;
                  if (value && start && value.isBefore(start)) throw new Error('结束时间不能早于开始时间');
                },
              }),
            ]}
          >
            <DateTimePicker placeholder="可不填" />
          </Form.Item>
          <Form.Item name="sort" label="排序" rules={[{ required: true, message: '请输入排序' }]}>
            <InputNumber min={0} max={9999} precision={0} style={{ width: 160 }} />
          </Form.Item>
        </FormModal>
      )}
    </>
  );
}
