import type { Dashboard } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useCurrentUser } from '../../common/auth.ts';
import { http } from '../../common/http.ts';

const STATS: [keyof Dashboard, string][] = [
  ['users', '注册用户'],
  ['activeUsers', '启用账号'],
  ['organisations', '组织机构'],
  ['roles', '角色'],
  ['sessions', '在线会话'],
];

export default function HomePage() {
  const { data: user } = useCurrentUser();
  const { data, isLoading } = useQuery({ queryKey: ['dashboard'], queryFn: () => http.get<Dashboard>('/api/system/dashboard') });
  return (
    <>
      <Typography.Title level={4}>欢迎回来，{user?.userName || user?.username}</Typography.Title>
      <Row gutter={[16, 16]}>
        {STATS.map(([key, title]) => (
          <Col xs={12} md={8} lg={4} key={key}>
            <Card loading={isLoading}>
              <Statistic title={title} value={data?.[key] ?? 0} />
            </Card>
          </Col>
        ))}
      </Row>
    </>
  );
}
