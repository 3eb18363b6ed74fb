import { COORDINATOR_SCOPES, type Coordinator, type CoordinatorBody, type CoordinatorScope } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Radio, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { coordinatorApi, coordinatorKeys } from '#src/api/coordinators.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';
import { useIsPlatform } from '#src/common/auth.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { SchoolPicker, type SchoolValue } from '#src/common/SchoolPicker.tsx';

type Values = { account: string; school?: SchoolValue; scope: CoordinatorScope };

/**
 * 院校负责人 of a competition (issue 36): who acts for which school here (appointed for it, for every competition of
 * its organisation, or by the platform for all). They review their school's registrations first where the competition
 * has 两级审核, and follow its teams in their personal centre.
 */
export function CoordinatorsPanel({ competitionId, editable }: { competitionId: number; editable: boolean }) {
  const { message, modal } = App.useApp();
  const isPlatform = useIsPlatform();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const list = useQuery({ queryKey: coordinatorKeys.ofCompetition(competitionId), queryFn: () => coordinatorApi.list(competitionId) });
  const reload = () => queryClient.invalidateQueries({ queryKey: coordinatorKeys.all });
  const scopes = (Object.keys(COORDINATOR_SCOPES) as CoordinatorScope[]).filter((s) => s !== 'platform' || isPlatform);

  function revoke(c: Coordinator) {
    modal.confirm({
      title: '取消院校负责人',
      content: `确定取消 ${c.name ?? c.username} 作为${c.schoolName}院校负责人（${COORDINATOR_SCOPES[c.scope]}）吗？取消后其不能再审核和查看该校队伍。`,
      okText: '确定取消',
      cancelText: '不取消',
      onOk: async () => {
        await coordinatorApi.revoke(c.id);
        void message.success('已取消院校负责人');
        await reload();
      },
    });
  }

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {editable && (
        <Button onClick={() => setAdding(true)} data-testid="add-coordinator">
          指定院校负责人
        </Button>
      )}
      <Table<Coordinator>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: 640 }}
        locale={{ emptyText: '尚未指定院校负责人；实行两级审核的竞赛，须为参赛学校指定' }}
        columns={[
          { title: '学校', dataIndex: 'schoolName', width: 180 },
          { title: '院校负责人', width: 160, render: (_, c) => (c.name ? `${c.name}（${c.username}）` : c.username) },
          { title: '负责范围', width: 140, render: (_, c) => <Tag>{COORDINATOR_SCOPES[c.scope]}</Tag> },
          {
            title: '操作',
            width: 90,
            render: (_, c) => (editable && c.removable ? <ActionLink onClick={() => revoke(c)}>取消</ActionLink> : '—'),
          },
        ]}
      />
      {adding && (
        <FormModal<Values>
          title="指定院校负责人"
          okText="指定"
          name="coordinator"
          initialValues={{ scope: 'competition' }}
          onClose={() => setAdding(false)}
          onSave={async (v) => {
            const body: CoordinatorBody = { account: v.account, schoolId: v.school?.schoolId ?? 0, scope: v.scope };
            try {
              await coordinatorApi.appoint(competitionId, body);
            } catch (err) {
              // The server names the school by its id: the picker is the field that shows it.
              const fields = (err as { fields?: Record<string, string> }).fields;
              if (fields?.schoolId) fields.school = fields.schoolId;
              throw err;
            }
            void message.success('已指定院校负责人，对方会收到通知');
            await reload();
          }}
        >
          <Form.Item
            name="account"
            label="账号"
            extra="对方在本平台注册的用户名或手机号"
            rules={[{ required: true, whitespace: true, message: '请输入用户名或手机号' }]}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item
            name="school"
            label="学校"
            required
            rules={[
              {
                validator: async (_, v?: SchoolValue) => {
                  if (!v?.schoolId) throw new Error('请从学校名单中选择学校');
                },
              },
            ]}
          >
            <SchoolPicker />
          </Form.Item>
          <Form.Item name="scope" label="负责范围">
            <Radio.Group options={scopes.map((s) => ({ value: s, label: COORDINATOR_SCOPES[s] }))} />
          </Form.Item>
        </FormModal>
      )}
    </Space>
  );
}
