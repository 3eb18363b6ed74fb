import { EMAIL_MESSAGE, isValidEmail, isValidPhone, type UserInfo, type UserInfoUpdateBody } from '@contest/shared';
import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { App, Avatar, Button, Card, Col, DatePicker, Descriptions, Form, Input, Radio, Row, Space, Tag, Typography, Upload } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { accountApi } from '#src/api/users.ts';
import { fileUrls } from '#src/api/files.ts';
import { useCurrentUser, useRefreshUser } from '#src/common/auth.ts';
import { useAuthConfig } from '#src/common/siteConfig.ts';
import { avatarUrl } from '#src/common/files.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { ruleFrom, showFieldErrors } from '#src/common/forms.ts';
import { uploadHeaders } from '#src/common/upload.ts';
import { PhoneState } from './PhoneState.tsx';
import { SchoolPicker, type SchoolValue } from '#src/common/SchoolPicker.tsx';

type FormValues = Omit<UserInfoUpdateBody, 'birthday' | 'admissionDate' | 'schoolId' | 'organization'> & {
  birthday?: Dayjs | null;
  admissionDate?: Dayjs | null;
  school?: SchoolValue | null;
};

const TEXT_FIELDS: [keyof UserInfo, string][] = [
  ['userName', '姓名'],
  ['organization', '学校'],
  ['department', '院系'],
  ['speciality', '专业'],
  ['grade', '年级'],
  ['studentIdCard', '学号'],
  ['education', '学历'],
  ['company', '工作单位'],
  ['position', '职务'],
  ['province', '省份'],
  ['city', '城市'],
  ['area', '区县'],
  ['address', '通讯地址'],
];

const toDate = (v?: string | null) => (v ? dayjs(v) : null);
const fromDate = (v?: Dayjs | null) => (v ? v.format('YYYY-MM-DD') : null);

/** The email, whether it is verified, and the way to verify it: a link sent to it (which 忘记密码 then uses). */
function EmailState({ user }: { user: UserInfo }) {
  const { message } = App.useApp();
  const { data: config } = useAuthConfig();
  const [sending, setSending] = useState(false);
  if (!user.email) return <Typography.Text type="secondary">未填写（填写并验证后，忘记密码时可用邮箱找回）</Typography.Text>;
  async function send() {
    setSending(true);
    try {
      const { email } = await accountApi.sendEmailVerification();
      void message.success(`验证邮件已发送到 ${email}，请在24小时内点击邮件中的链接`, 6);
    } catch {
      // The request's own toast says why (a limit, the address verified by another account).
    } finally {
      setSending(false);
    }
  }
  return (
    <Space wrap size={8}>
      <span>{user.email}</span>
      {user.emailVerified ? (
        <Tag color="success">已验证</Tag>
      ) : (
        <>
          <Tag color="warning">未验证</Tag>
          {config?.mailEnabled && (
            <Button size="small" loading={sending} onClick={() => void send()}>
              发送验证邮件
            </Button>
          )}
        </>
      )}
    </Space>
  );
}

function ProfileView({ user }: { user: UserInfo }) {
  const yesNo = (v: boolean | null) => (v === null ? '' : v ? '是' : '否');
  return (
    <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
      <Descriptions.Item label="用户名">{user.username}</Descriptions.Item>
      <Descriptions.Item label="性别">{user.sex === null ? '' : user.sex === 0 ? '男' : '女'}</Descriptions.Item>
      <Descriptions.Item label="手机号">
        <PhoneState user={user} />
      </Descriptions.Item>
      <Descriptions.Item label="邮箱">
        <EmailState user={user} />
      </Descriptions.Item>
      <Descriptions.Item label="出生日期">{user.birthday}</Descriptions.Item>
      <Descriptions.Item label="是否在校">{yesNo(user.atSchool)}</Descriptions.Item>
      <Descriptions.Item label="入学时间">{user.admissionDate}</Descriptions.Item>
      {TEXT_FIELDS.map(([field, label]) => (
        <Descriptions.Item key={field} label={label}>
          {user[field] as string}
          {field === 'userName' &&
            (user.realNameVerified ? (
              <Tag color="success" style={{ marginInlineStart: 8 }}>
                已实名
              </Tag>
            ) : (
              <Link to="/userCenter/realName" style={{ marginInlineStart: 8 }}>
                去实名认证
              </Link>
            ))}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

export default function MyInfoPage() {
  const { data: user } = useCurrentUser();
  const refresh = useRefreshUser();
  const { message } = App.useApp();
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<FormValues>();
  if (!user) return null;

  async function save(values: FormValues) {
    setSaving(true);
    try {
      const { school, ...rest } = values;
      await accountApi.update({
        ...rest,
        birthday: fromDate(values.birthday),
        admissionDate: fromDate(values.admissionDate),
        schoolId: school?.schoolId ?? null,
        organization: school?.organization?.trim() || null,
      });
      void message.success('个人信息已保存');
      await refresh();
      setEditing(false);
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSaving(false);
    }
  }

  async function setAvatar(fileUri: string) {
    await accountApi.update({ faceImg: fileUri });
    void message.success('头像已更新');
    await refresh();
  }

  return (
    <Card
      title="个人信息"
      extra={
        !editing && (
          <Button type="primary" onClick={() => setEditing(true)}>
            编辑
          </Button>
        )
      }
    >
      <Space align="center" size={24} style={{ marginBottom: 24 }}>
        <Avatar size={80} src={user.faceImg ? avatarUrl(user.faceImg) : undefined} icon={<UserOutlined />} />
        <Upload
          name="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          action={fileUrls.uploadAvatar}
          headers={uploadHeaders()}
          showUploadList={false}
          beforeUpload={(file) => {
            if (file.size > 2 * 1024 * 1024) {
              void message.error('图片不能超过2MB');
              return Upload.LIST_IGNORE;
            }
            return true;
          }}
          onChange={({ file }) => {
            if (file.status === 'done') void setAvatar(file.response.data.fileUri);
            if (file.status === 'error') void message.error(file.response?.message ?? '上传失败', 5);
          }}
        >
          <Button icon={<UploadOutlined />}>更换头像</Button>
        </Upload>
      </Space>
      {editing ? (
        <Form
          form={form}
          layout="vertical"
          onFinish={save}
          initialValues={{
            ...user,
            birthday: toDate(user.birthday),
            admissionDate: toDate(user.admissionDate),
            school: { schoolId: user.schoolId, organization: user.organization },
          }}
        >
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="sex" label="性别">
                <Radio.Group
                  options={[
                    { value: 0, label: '男' },
                    { value: 1, label: '女' },
                  ]}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="atSchool" label="是否在校">
                <Radio.Group
                  options={[
                    { value: true, label: '是' },
                    { value: false, label: '否' },
                  ]}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="phone" label="手机号" rules={[ruleFrom((v) => (isValidPhone(v) ? null : '手机号格式不正确'))]}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="email" label="邮箱" rules={[ruleFrom((v) => (isValidEmail(v) ? null : EMAIL_MESSAGE))]}>
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="birthday" label="出生日期">
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="admissionDate" label="入学时间">
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            {TEXT_FIELDS.map(([field, label]) => (
              <Col xs={24} md={12} key={field}>
                {field === 'organization' ? (
                  <Form.Item name="school" label={label} extra="从名单中选择；名单中没有的学校选“其他”后填写">
                    <SchoolPicker />
                  </Form.Item>
                ) : (
                  <Form.Item
                    name={field}
                    label={label}
                    rules={[{ max: field === 'address' ? 200 : 100, message: '内容过长' }]}
                    extra={field === 'userName' && user.realNameVerified ? '已实名认证，姓名不能修改' : undefined}
                  >
                    <Input disabled={field === 'userName' && user.realNameVerified} />
                  </Form.Item>
                )}
              </Col>
            ))}
          </Row>
          <Space>
            <GuardedButton type="primary" htmlType="submit" loading={saving}>
              保存
            </GuardedButton>
            <Button onClick={() => setEditing(false)}>取消</Button>
          </Space>
        </Form>
      ) : (
        <ProfileView user={user} />
      )}
    </Card>
  );
}
