import type { CompetitionListItem } from '@contest/shared';
import { TeamOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Col, Empty, Row, Space, Spin, Tag } from 'antd';
import { Suspense, lazy, useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { brandApi, brandKeys } from '#src/api/catalogue.ts';
import { publicCompetitionApi, publicCompetitionKeys } from '#src/api/competitions.ts';
import { avatarUrl } from '#src/common/files.ts';
import { desktopRedirectTarget } from '#src/common/desktop.ts';
import { sysTime } from '#src/common/http.ts';
import { pager } from '#src/common/pager.ts';
import { DESKTOP_TOKEN_KEY, readCookie } from '#src/common/storage.ts';
import { formatDay } from '#src/common/time.ts';
import { PhaseTag, phaseOf } from '#src/common/PhaseTag.tsx';
import { Countdown } from '#src/common/Countdown.tsx';
import { PlainCard } from './PlainCard.tsx';
import { StatusTabs } from './StatusTabs.tsx';

const STATUS_TABS = [
  { key: '', label: '全部' },
  { key: '2', label: '报名中' },
  { key: '3', label: '进行中' },
  { key: '4', label: '已结束' },
];
const BRAND_PAGE_SIZE = 6;
/** The pager (antd's Pagination with its Select) is fetched once the cards are painted, so that it never holds them back. */
const Pager = lazy(() => import('#src/common/Pager.tsx'));
/** Fetched when a cut title is first hovered. */
const TitleTooltip = lazy(() => import('./TitleTooltip.tsx'));

/*
 * This page draws its texts with plain elements in Typography's look (site.css): antd's Typography brings its editable
 * text area, copy button and tooltip, a tenth of the first screen's budget (ARCHITECTURE §9).
 */

/** A competition's name on one line, cut with an ellipsis and then shown whole on hover, as Typography's ellipsis does. */
function CardTitle({ name }: { name: string }) {
  const [cut, setCut] = useState(false);
  const title = (
    // biome-ignore lint/a11y/noStaticElementInteractions: hovering only measures whether the name is cut; the card's link is what the keyboard reaches
    <span className="comp-card-title" onMouseEnter={(e) => setCut(e.currentTarget.scrollWidth > e.currentTarget.clientWidth)}>
      {name}
    </span>
  );
  if (!cut) return title;
  return (
    <Suspense fallback={title}>
      <TitleTooltip title={name}>{title}</TitleTooltip>
    </Suspense>
  );
}

function CompetitionCard({ c }: { c: CompetitionListItem }) {
  const { next } = phaseOf(c, sysTime());
  return (
    <Link to={`/competition/${c.id}`}>
      <PlainCard
        hoverable
        className="comp-card"
        cover={<div className="comp-cover">{c.cover ? <img src={avatarUrl(c.cover)} alt="" /> : c.brandShortName}</div>}
        data-testid="competition-card"
      >
        <Space direction="vertical" size={6} style={{ width: '100%' }}>
          <CardTitle name={c.name} />
          <Space wrap size={4}>
            <PhaseTag competition={c} next />
            {next && <Countdown deadline={next.at} />}
            {c.typeName && <Tag>{c.typeName}</Tag>}
          </Space>
          <span className="comp-card-note">
            报名：{formatDay(c.regStartTime)} 至 {formatDay(c.regEndTime)}
          </span>
          <span className="comp-card-note">
            主办：{c.orgName}　<TeamOutlined /> {c.teamNum} 支队伍
          </span>
        </Space>
      </PlainCard>
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
    queryKey: brandKeys.recommended,
    queryFn: () => brandApi.recommended(BRAND_PAGE_SIZE),
  });
  if (!data?.list.length) return null;
  return (
    <PlainCard title="推荐品牌" size="small" style={{ marginBottom: 16 }}>
      <Row gutter={[16, 16]}>
        {data.list.map((b) => (
          <Col xs={12} sm={8} md={4} key={b.id}>
            <PlainCard size="small" hoverable className="brand-chip" onClick={() => navigate(`/competitionList/${b.id}`)} data-testid="brand-chip">
              {b.logo ? (
                <img src={avatarUrl(b.logo)} alt="" />
              ) : (
                <h5 className="list-heading" style={{ margin: 0, color: '#1890ff' }}>
                  {b.shortName}
                </h5>
              )}
              <div style={{ fontSize: 12, color: '#999' }}>{b.competitionNum} 个竞赛</div>
            </PlainCard>
          </Col>
        ))}
      </Row>
    </PlainCard>
  );
}

/**
 * True from the first frame painted after `ready` turned true. An effect alone can run before that paint (React flushes
 * a synchronous update's effects at once), and what it starts would then compete with the cards.
 */
function usePaintedAfter(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, painted]);
  return painted;
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
    queryKey: brandKeys.detail(Number(brandId)),
    queryFn: () => brandApi.detail(Number(brandId)),
    enabled: Boolean(brandId),
  });
  const { data, isLoading } = useQuery({
    queryKey: publicCompetitionKeys.list({ brandId, status, ...paging }),
    queryFn: () => publicCompetitionApi.list({ brandId, status, ...paging }),
  });
  const cardsPainted = usePaintedAfter(data !== undefined);

  if (brandId !== undefined && !/^\d+$/.test(brandId)) return <Navigate to="/404" replace />;
  return (
    <>
      {!brandId && <RecommendedBrands />}
      <PlainCard>
        <h3 className="list-title">{brand ? brand.name : '竞赛列表'}</h3>
        {brand?.description && <div className="list-description">{brand.description}</div>}
        <StatusTabs
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
                <h5 className="list-heading">
                  <Link to={`/competitionList/${id}`}>{group.name}</Link>
                </h5>
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
        {cardsPainted && data && data.total > 0 && (
          <Suspense fallback={null}>
            <Pager style={{ marginTop: 16, textAlign: 'right' }} {...pager(data, (page, limit) => setPaging({ page, limit }))} />
          </Suspense>
        )}
      </PlainCard>
    </>
  );
}
