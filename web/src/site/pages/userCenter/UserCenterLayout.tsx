import {
  BankOutlined,
  BellOutlined,
  ApartmentOutlined,
  FileTextOutlined,
  IdcardOutlined,
  LockOutlined,
  SafetyCertificateOutlined,
  ShoppingOutlined,
  SolutionOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Menu, Result, Row, Spin } from 'antd';
import { coordinatorApi, coordinatorKeys } from '#src/api/coordinators.ts';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useCurrentUser } from '#src/common/auth.ts';
import { goLogin } from '#src/common/http.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';

/** The personal centre's menu (spec §2.1). */
const MENU = [
  { key: '/userCenter/myInfo', icon: <UserOutlined />, label: '个人信息' },
  { key: '/userCenter/realName', icon: <SolutionOutlined />, label: '实名认证' },
  { key: '/userCenter/myOrder', icon: <ShoppingOutlined />, label: '我的订单' },
  { key: '/userCenter/myInvoice', icon: <FileTextOutlined />, label: '我的发票' },
  { key: '/userCenter/invoiceTitle', icon: <IdcardOutlined />, label: '常用发票抬头' },
  { key: '/userCenter/myCertificate', icon: <SafetyCertificateOutlined />, label: '我的证书' },
  { key: '/userCenter/accountSet', icon: <LockOutlined />, label: '账号设置' },
  { key: '/userCenter/messages', icon: <BellOutlined />, label: '消息设置' },
  { key: '/userCenter/partner', icon: <BankOutlined />, label: '组织方申请' },
];

export default function UserCenterLayout() {
  const { data: user, isLoading } = useCurrentUser();
  const location = useLocation();
  const navigate = useNavigate();
  // 院校负责人 is in the menu for the people appointed (issue 36); the page says so to anyone else who opens it.
  const coordination = useQuery({ queryKey: coordinatorKeys.mine, enabled: Boolean(user), queryFn: coordinatorApi.mine });
  const items = coordination.data?.length ? [...MENU, { key: '/userCenter/school', icon: <ApartmentOutlined />, label: '院校负责人' }] : MENU;
  if (isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (!user) {
    return <Result status="403" title="请先登录" subTitle="登录后才能进入个人中心" extra={<ActionLink onClick={goLogin}>去登录</ActionLink>} />;
  }
  return (
    <Row gutter={24}>
      <Col xs={24} md={6}>
        <Card styles={{ body: { padding: 8 } }}>
          <Menu mode="inline" selectedKeys={[location.pathname]} items={items} onClick={({ key }) => navigate(key)} style={{ border: 'none' }} />
        </Card>
      </Col>
      <Col xs={24} md={18}>
        <Outlet />
      </Col>
    </Row>
  );
}
