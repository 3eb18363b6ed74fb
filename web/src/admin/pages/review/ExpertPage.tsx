import { ACTION_CODES, type Expert } from '@contest/shared';
import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Form, Input, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { usePermissions } from '#src/common/auth.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { expertApi, expertKeys, type ExpertListParams } from '#src/api/review.ts';
import { formatMinute } from '#src/common/time.ts';
import { personLabel } from '../../components/review.ts';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';

interface Values {
  username: string;
  organization: string;
  speciality?: string;
  title?: string;
}

/** Adds a user to the pool (by username; the user gets the judge role), or edits an expert's details. */
function ExpertModal({ expert, onClose }: { expert: Expert | null; onClose: () => void }) {
  const { message } = App.useApp();
  const save = useListMutation(
    ({ username, ...details }: Values) => {
      const body = { organization: details.organization, speciality: details.speciality?.trim() || null, title: details.title?.trim() || null };
      return expert ? expertApi.update(expert.userId, body) : expertApi.add({ username: username.trim(), ...body });
    },
    [expertKeys.all],
    () => void message.success(expert ? '专家信息已保存' : '已添加评审专家'),
  );
  const initial: Partial<Values> = expert
    ? { username: expert.username, organization: expert.organization, speciality: expert.speciality ?? '', title: expert.title ?? '' }
    : {};
  return (
    <FormModal<Values>
      title={expert ? `编辑评审专家：${personLabel(expert)}` : '添加评审专家'}
      name="expert"
      initialValues={initial}
      onSave={save.mutateAsync}
      onClose={onClose}
    >
      <Form.Item
        name="username"
        label="用户名"
        rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}
        extra={expert ? undefined : '填写已注册用户的用户名，添加后该用户获得评审专家角色'}
      >
        <Input maxLength={50} disabled={Boolean(expert)} />
      </Form.Item>
      <Form.Item name="organization" label="所在单位" rules={[{ required: true, whitespace: true, message: '请输入所在单位' }]}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="speciality" label="专业领域">
        <Input maxLength={100} placeholder="如：机器学习、数据挖掘" />
      </Form.Item>
      <Form.Item name="title" label="职称">
        <Input maxLength={50} placeholder="如：教授、高级工程师" />
      </Form.Item>
    </FormModal>
  );
}

/** `review/expert`: the pool of expert judges with their workload across questions. */
export default function ExpertPage() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const editable = usePermissions().has(ACTION_CODES.expertEdit);
  const list = usePagedList(useListState<ExpertListParams>(), {
    queryKey: expertKeys.list,
    queryFn: expertApi.list,
    emptyText: '暂无评审专家',
    rowKey: 'userId',
  });
  const [editing, setEditing] = useState<Expert | null | undefined>(undefined);
  const removal = useListMutation(expertApi.remove, [expertKeys.all], () => void message.success('已移出评审专家库'));

  const remove = (e: Expert) =>
    confirm(`确定将“${personLabel(e)}”移出评审专家库吗？移出后该用户不再是评审专家。`, () => removal.mutateAsync(e.userId), { danger: true });

  return (
    <Card
      title="评审专家"
      extra={
        editable && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            添加专家
          </Button>
        )
      }
    >
      <Input.Search
        allowClear
        placeholder="用户名、姓名、单位或专业"
        style={{ width: 280, marginBottom: 16 }}
        onSearch={(v) => list.refine({ keyword: v.trim() || undefined })}
      />
      <Table<Expert>
        {...list.table}
        scroll={{ x: 1200 }}
        columns={[
          { title: '用户名', dataIndex: 'username', width: 120 },
          { title: '姓名', dataIndex: 'userName', width: 100 },
          {
            title: '所在单位',
            width: 200,
            ellipsis: true,
            render: (_, e) => (
              <>
                {e.organization}
                {e.platform && (
                  <Tooltip title="平台专家库的专家：各组织都可选用，只有平台管理员可以修改">
                    <Tag style={{ marginLeft: 6 }}>平台</Tag>
                  </Tooltip>
                )}
              </>
            ),
          },
          { title: '专业领域', dataIndex: 'speciality', width: 150, ellipsis: true },
          { title: '职称', dataIndex: 'title', width: 110 },
          { title: '评审赛题', dataIndex: 'questions', width: 90 },
          { title: '已分配作品', dataIndex: 'assigned', width: 100 },
          { title: '已提交评分', dataIndex: 'submitted', width: 100 },
          { title: '加入时间', width: 150, render: (_, e) => formatMinute(e.createdAt) },
          ...(editable
            ? [
                {
                  title: '操作',
                  width: 120,
                  fixed: 'right' as const,
                  // Only the experts the caller may change offer the actions: another pool's are used, not edited.
                  render: (_: unknown, e: Expert) =>
                    !e.canEdit ? (
                      <Tooltip title={e.platform ? '平台专家库的专家只能由平台管理员修改或移除' : '该专家由其他组织添加'}>
                        <span className="admin-hint">仅可选用</span>
                      </Tooltip>
                    ) : (
                      <Space>
                        <ActionLink onClick={() => setEditing(e)}>编辑</ActionLink>
                        {e.questions ? (
                          <Tooltip title="该专家仍在赛题的评审名单中，请先从赛题中移除">
                            <span className="admin-hint">删除</span>
                          </Tooltip>
                        ) : (
                          <ActionLink onClick={() => remove(e)}>删除</ActionLink>
                        )}
                      </Space>
                    ),
                },
              ]
            : []),
        ]}
      />
      {editing !== undefined && <ExpertModal expert={editing} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}
