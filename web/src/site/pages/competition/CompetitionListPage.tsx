import { COMPETITION_STATUS_TEXT, type Brand, type CompetitionListItem, type Page } from '@contest/shared';
import { TeamOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Pagination, Row, Space, Spin, Tabs, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { avatarUrl } from '../../../common/files.ts';
import { desktopRedirectTarget } from '../../../common/desktop.ts';
import { http } from '../../../common/http.ts';
import { pager } from '../../../common/pager.ts';
import { DESKTOP_TOKEN_KEY, readCookie } from '../../../common/storage.ts';
import { formatDay } from '../../../common/time.ts';

const STATUS_TABS = [
  { key: '', label: '全部' },
  { key: '2', label: '报名中' },
  { key: '3', label: '进行中' },
  { key: '4', label: '已结束' },
];
const STATUS_COLORS: Record<number, string> = { 1: 'default', 2: 'green', 3: 'blue', 4: 'default' };
const BRAND_PAGE_SIZE = 6;

export function StatusTag({ status }: { status: number }) {
  return <Tag color={STATUS_COLORS[status]}>{COMPETITION_STATUS_TEXT[status]}</Tag>;
}

function CompetitionCard({ c }: { c: CompetitionListItem }) {
  return (
    <Link to={`/competition/${c.id}`}>
      <Card
        hoverable
        className="comp-card"
        cover={<div className="comp-cover">{c.cover ? <img src={avatarUrl(c.cover)} alt="" /> : c.brandShortName}</div>}
        data-testid="competition-card"
      >
        <Space direction="vertical" size={6} style={{ width: '100%' }}>
          <Typography.Text strong ellipsis={{ tooltip: c.name }} style={{ fontSize: 16 }}>
            {c.name}
          </Typography.Text>
          <Space wrap size={4}>
            <StatusTag status={c.status} />
            {c.typeName && <Tag>{c.typeName}</Tag>}
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 13 }}>
            报名：{formatDay(c.regStartTime)} 至 {formatDay(c.regEndTime)}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 13 }}>
            主办：{c.orgName}　<TeamOutlined /> {c.teamNum} 支队伍
          </Typography.Text>
        </Space>
      </Card>
    </Link>
  );
}

/** Competitions of one page, grouped under their brand in the order they arrive. */
function groupByBrand(list: CompetitionListItem[]) {
  const groups = new Map<number, { name: string; items: CompetitionListItem[] }>();
  for (const c of list) {
    const group = groups.get(c.brandId) ?? { name: c.brandShortName, items: [] };
    group.items.push(c);
    groups.set(c.brandId, group);
  }
  return [...groups.entries()];
}

function RecommendedBrands() {
  const navigate = useNavigate();
  const { data } = useQuery({
    queryKey: ['recommendedBrands'],
    queryFn: () => http.get<Page<Brand>>('/api/competition/brand/public/page', { recommend: 1, limit: BRAND_PAGE_SIZE }),
  });
  if (!data?.list.length) return null;
  return (
    <Card title="推荐品牌" size="small" style={{ marginBottom: 16 }}>
      <Row gutter={[16, 16]}>
        {data.list.map((b) => (
          <Col xs={12} sm={8} md={4} key={b.id}>
            <Card size="small" hoverable className="brand-chip" onClick={() => navigate(`/competitionList/${b.id}`)} data-testid="brand-chip">
              {b.logo ? <img src={avatarUrl(b.logo)} alt="" /> : <Typography.Title level={5} style={{ margin: 0, color: '#1890ff' }}>{b.shortName}</Typography.Title>}
              <div style={{ fontSize: 12, color: '#999' }}>{b.competitionNum} 个竞赛</div>
            </Card>
          </Col>
        ))}
      </Row>
    </Card>
  );
}

export default function CompetitionListPage() {
  const { brandId } = useParams();
  const [search] = useSearchParams();
  const [status, setStatus] = useState('');
  const [paging, setPaging] = useState({ page: 1, limit: 20 });

  // Spec §2.1: the desktop client's browser is sent to the desktop app; the app keeps the token it was given.
  useEffect(() => {
    const token = search.get('token');
    if (search.get('electron') === 'app' && token) localStorage.setItem(DESKTOP_TOKEN_KEY, token);
    const target = desktopRedirectTarget({ stateCookie: readCookie('state'), origin: location.origin, appOrigin: readCookie('appOrigin'), token });
    if (target) location.href = target;
  }, [search]);

  const { data: brand } = useQuery({
    queryKey: ['brand', Number(brandId)],
    queryFn: () => http.get<Brand>(`/api/competition/brand/public/${brandId}`),
    enabled: Boolean(brandId),
  });
  const { data, isLoading } = useQuery({
    queryKey: ['competitions', brandId, status, paging],
    queryFn: () => http.get<Page<CompetitionListItem>>('/api/competition/public/list', { brandId, status, ...paging }),
  });

  if (brandId !== undefined && !/^\d+$/.test(brandId)) return <Navigate to="/404" replace />;
  return (
    <>
      {!brandId && <RecommendedBrands />}
      <Card>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {brand ? brand.name : '竞赛列表'}
        </Typography.Title>
        {brand?.description && <Typography.Paragraph type="secondary">{brand.description}</Typography.Paragraph>}
        <Tabs
          activeKey={status}
          items={STATUS_TABS}
          onChange={(key) => {
            setStatus(key);
            setPaging({ ...paging, page: 1 });
          }}
        />
        {isLoading ? (
          <Spin style={{ display: 'block', margin: '48px auto' }} />
        ) : !data?.list.length ? (
          <Empty description="暂无竞赛" />
        ) : (
          groupByBrand(data.list).map(([id, group]) => (
            <section key={id} style={{ marginBottom: 24 }} data-testid="brand-group">
              {!brandId && (
                <Typography.Title level={5}>
                  <Link to={`/competitionList/${id}`}>{group.name}</Link>
                </Typography.Title>
              )}
              <Row gutter={[16, 16]}>
                {group.items.map((c) => (
                  <Col xs={24} sm={12} lg={8} key={c.id}>
                    <CompetitionCard c={c} />
                  </Col>
                ))}
              </Row>
            </section>
          ))
        )}
        {data && data.total > 0 && (
          <Pagination style={{ marginTop: 16, textAlign: 'right' }} {...pager(data, (page, limit) => setPaging({ page, limit }))} />
        )}
      </Card>
    </>
  );
}
