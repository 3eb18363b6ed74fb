import { realNameRequiredText, type RealNameMenu } from '@contest/shared';
import { Alert, Button, Result } from 'antd';
import { Link } from 'react-router';

/** Where a competition keeps an action for people who completed 实名认证: why, and the way there. */
export function RealNameGate({ menu, back }: { menu: RealNameMenu; back?: string }) {
  return (
    <Result
      status="warning"
      title="需要先完成实名认证"
      subTitle={realNameRequiredText(menu)}
      extra={[
        <Link key="go" to="/userCenter/realName">
          <Button type="primary">去实名认证</Button>
        </Link>,
        back && (
          <Link key="back" to={back}>
            <Button>返回竞赛</Button>
          </Link>
        ),
      ]}
    />
  );
}

/** The same, as a line above what it concerns (a question's data files). */
export function RealNameNote({ menu, verified }: { menu: RealNameMenu; verified: boolean }) {
  return verified ? (
    <Alert type="success" showIcon style={{ marginBottom: 12 }} message="本竞赛要求实名认证，你已完成认证" />
  ) : (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      message={realNameRequiredText(menu)}
      action={
        <Link to="/userCenter/realName">
          <Button size="small" type="primary">
            去实名认证
          </Button>
        </Link>
      }
    />
  );
}
