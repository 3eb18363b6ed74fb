import { DEGREES, GROUP_MODES, eligibilityLines, type Eligibility, type GroupMode } from '@contest/shared';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Col, Form, Input, InputNumber, Row, Select, Space } from 'antd';

const MODE_OPTIONS = (Object.keys(GROUP_MODES) as GroupMode[]).map((value) => ({ value, label: GROUP_MODES[value] }));
const DEGREE_OPTIONS = DEGREES.map((d) => ({ value: d, label: d }));

/** The groups a competition usually starts from, by mode. */
const STARTING_GROUPS: Record<GroupMode, Eligibility['groupList']> = {
  none: [],
  degree: [
    { name: '本科组', degrees: ['高职（专科）', '本科'] },
    { name: '研究生组', degrees: ['硕士研究生', '博士研究生'] },
  ],
  choice: [
    { name: '本科组', degrees: [] },
    { name: '研究生组', degrees: [] },
  ],
};

/**
 * 参赛资格 in the competition editor (issue 36 item 3): one school per team, places per school and per teacher,
 * groups. Below, the rules as participants will read them on the competition and registration pages.
 */
export function EligibilityFields({ locked }: { locked: boolean }) {
  const form = Form.useFormInstance();
  const mode = Form.useWatch(['eligibility', 'groupMode'], form) as GroupMode | undefined;
  const eligibility = Form.useWatch('eligibility', form) as Eligibility | undefined;
  const hint = locked ? '竞赛上线后不能修改' : undefined;
  const lines = eligibility ? eligibilityLines({ ...eligibility, groupList: eligibility.groupList ?? [] }) : [];
  return (
    <>
      <Row gutter={24}>
        <Col xs={24} md={8}>
          <Form.Item name={['eligibility', 'sameSchool']} label="同校组队" valuePropName="checked" extra={hint}>
            <Checkbox disabled={locked}>队员和指导老师须来自同一学校</Checkbox>
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name={['eligibility', 'schoolAudit']}
            label="两级审核"
            valuePropName="checked"
            extra={hint ?? '报名先由本校的院校负责人审核，通过后再由主办方审核；院校负责人在竞赛详情页指定'}
          >
            <Checkbox disabled={locked}>学校审核后再由主办方审核</Checkbox>
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name={['eligibility', 'maxTeamsPerSchool']} label="每校最多队伍数" extra={hint ?? '不填为不限'}>
            <InputNumber min={1} max={10000} precision={0} style={{ width: '100%' }} placeholder="不限" disabled={locked} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name={['eligibility', 'maxTeamsPerTeacher']} label="每位老师最多指导队伍数" extra={hint ?? '不填为不限；以老师手机号识别'}>
            <InputNumber min={1} max={1000} precision={0} style={{ width: '100%' }} placeholder="不限" disabled={locked} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={['eligibility', 'groupMode']} label="分组" extra={hint}>
            <Select
              options={MODE_OPTIONS}
              disabled={locked}
              onChange={(v: GroupMode) => {
                const list = (form.getFieldValue(['eligibility', 'groupList']) as Eligibility['groupList'] | undefined) ?? [];
                if (!list.length || v === 'none') form.setFieldValue(['eligibility', 'groupList'], STARTING_GROUPS[v]);
              }}
            />
          </Form.Item>
        </Col>
      </Row>
      {mode && mode !== 'none' && (
        <Form.List name={['eligibility', 'groupList']}>
          {(items, { add, remove }) => (
            <div style={{ marginBottom: 16 }}>
              {items.map((item, i) => (
                <Row gutter={12} key={item.key} align="top">
                  <Col xs={24} md={8}>
                    <Form.Item name={[item.name, 'name']} label={`组别${i + 1}名称`} rules={[{ required: true, whitespace: true, message: '请输入组别名称' }]}>
                      <Input maxLength={20} placeholder="如：本科组" disabled={locked} aria-label={`第${i + 1}个组别名称`} />
                    </Form.Item>
                  </Col>
                  {mode === 'degree' && (
                    <Col xs={20} md={13}>
                      <Form.Item name={[item.name, 'degrees']} label={`组别${i + 1}包含的学历`} rules={[{ required: true, message: '请选择包含的学历' }]}>
                        <Select mode="multiple" options={DEGREE_OPTIONS} placeholder="选择学历" disabled={locked} aria-label={`第${i + 1}个组别的学历`} />
                      </Form.Item>
                    </Col>
                  )}
                  <Col xs={4} md={3} style={{ paddingTop: 30 }}>
                    <Button icon={<DeleteOutlined />} aria-label="删除组别" onClick={() => remove(item.name)} disabled={locked || items.length <= 2} />
                  </Col>
                </Row>
              ))}
              <Space>
                <Button icon={<PlusOutlined />} onClick={() => add({ name: '', degrees: [] })} disabled={locked || items.length >= 10}>
                  添加组别
                </Button>
              </Space>
            </div>
          )}
        </Form.List>
      )}
      {lines.length > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="参赛者将在竞赛页和报名页看到"
          description={
            <ul style={{ margin: 0, paddingLeft: 20 }}>
              {lines.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          }
        />
      )}
    </>
  );
}
