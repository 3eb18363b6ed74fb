import { EMAIL_MESSAGE, PASSWORD_HINT, USERNAME_MESSAGE, checkPasswordStrength, isValidEmail, isValidPhone, isValidUsername } from '@contest/shared';
import { Form, Input } from 'antd';
import { ruleFrom, sameAsRule } from './forms.ts';

/**
 * The fields of a new account, checked as the server checks them: name, password twice, and the optional phone and
 * email. Sign-up fills them for oneself; the administrator's 新增用户 for someone else (`byAdmin`: an initial password
 * to hand over, and no browser autofill of one's own details).
 */
export function AccountFields({ byAdmin = false }: { byAdmin?: boolean }) {
  return (
    <>
      <Form.Item
        name="username"
        label="用户名"
        rules={[{ required: true, message: '请输入用户名' }, ruleFrom((v) => (isValidUsername(v) ? null : USERNAME_MESSAGE))]}
      >
        <Input placeholder="3至32位" autoComplete={byAdmin ? 'off' : 'username'} />
      </Form.Item>
      <Form.Item
        name="password"
        label={byAdmin ? '初始密码' : '密码'}
        rules={[{ required: true, message: byAdmin ? '请输入初始密码' : '请输入密码' }, ruleFrom(checkPasswordStrength)]}
        extra={byAdmin ? `${PASSWORD_HINT}。请告知用户，并提醒其登录后修改。` : PASSWORD_HINT}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="confirm" label="确认密码" dependencies={['password']} rules={[{ required: true, message: '请再次输入密码' }, sameAsRule('password')]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="phone" label="手机号（选填）" rules={[ruleFrom((v) => (isValidPhone(v) ? null : '手机号格式不正确'))]}>
        <Input autoComplete={byAdmin ? 'off' : 'tel'} />
      </Form.Item>
      <Form.Item name="email" label="邮箱（选填）" rules={[ruleFrom((v) => (isValidEmail(v) ? null : EMAIL_MESSAGE))]}>
        <Input autoComplete={byAdmin ? 'off' : 'email'} />
      </Form.Item>
    </>
  );
}
