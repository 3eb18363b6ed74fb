import { ACTION_CODES, type BrandNavBody } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Col, Divider, Form, Input, Row, Skeleton, Space } from 'antd';
import { Navigate, useNavigate } from 'react-router';
import { usePermissions } from '#src/common/auth.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { brandApi, brandKeys } from '#src/api/catalogue.ts';
import { showFieldErrors } from '#src/common/forms.ts';
import { ImageUpload } from '../../components/ImageUpload.tsx';
import { LinkListEditor } from '../../components/LinkListEditor.tsx';
import { useIdParam } from '../../components/useIdParam.ts';
import { useListMutation } from '#src/common/usePagedList.ts';

type NavValues = Omit<BrandNavBody, 'brandId'>;

const EMPTY: NavValues = { navList: [], sublinksList: [], frendlinksList: [], topLogoPath: null, bottomLogoPath: null, rcodePath: null, copyright: null };

/** A brand's own header and footer on the site (spec §2.2): links, logos, QR code and copyright. */
export default function BrandNavPage() {
  const brandId = useIdParam('brandId');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const canEdit = usePermissions().has(ACTION_CODES.brandEdit);
  const [form] = Form.useForm<NavValues>();

  const brand = useQuery({ queryKey: brandKeys.detail(brandId), queryFn: () => brandApi.detail(brandId!), enabled: brandId !== null });
  const nav = useQuery({ queryKey: brandKeys.nav(brandId), queryFn: () => brandApi.nav(brandId!), enabled: brandId !== null });
  // A brand has no navigation until it is first saved: then it is created, afterwards updated.
  const saving = useListMutation(
    (body: BrandNavBody) => (nav.data ? brandApi.updateNav(nav.data.id, body) : brandApi.createNav(body)),
    [brandKeys.nav(brandId)],
    () => void message.success('品牌导航已保存'),
  );

  if (brandId === null || brand.isError) return <Navigate to="/404" replace />;

  async function save(values: NavValues) {
    try {
      await saving.mutateAsync({ ...EMPTY, ...values, brandId: brandId! });
    } catch (err) {
      showFieldErrors(form, err);
    }
  }

  const loading = brand.isLoading || nav.isLoading;
  return (
    <Card title={`品牌导航${brand.data ? `：${brand.data.name}` : ''}`} extra={<Button onClick={() => navigate('/competition/brand')}>返回品牌列表</Button>}>
      {loading ? (
        <Skeleton active />
      ) : (
        <Form<NavValues> form={form} name="brandNav" layout="vertical" initialValues={nav.data ?? EMPTY} onFinish={save} disabled={!canEdit}>
          <Divider orientation="left">页头</Divider>
          <Form.Item name="topLogoPath" label="顶部标志">
            <ImageUpload purpose="logo" width={200} height={60} />
          </Form.Item>
          <Form.Item label="导航链接" extra="每个导航链接可带下拉子链接；打开方式：当前窗口或新窗口">
            <LinkListEditor name="navList" max={12} addText="添加导航链接" withChildren disabled={!canEdit} />
          </Form.Item>
          <Divider orientation="left">页脚</Divider>
          <Row gutter={24}>
            <Col xs={24} lg={12}>
              <Form.Item name="bottomLogoPath" label="底部标志">
                <ImageUpload purpose="logo" width={200} height={60} />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Form.Item name="rcodePath" label="二维码">
                <ImageUpload purpose="logo" width={100} height={100} hint="如公众号二维码，建议正方形图片" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label="子链接">
            <LinkListEditor name="sublinksList" max={30} addText="添加子链接" disabled={!canEdit} />
          </Form.Item>
          <Form.Item label="友情链接">
            <LinkListEditor name="frendlinksList" max={30} addText="添加友情链接" disabled={!canEdit} />
          </Form.Item>
          <Form.Item name="copyright" label="版权信息" rules={[{ max: 200, message: '版权信息不能超过200个字符' }]}>
            <Input placeholder="如 © 2025 示例大学 版权所有" />
          </Form.Item>
          {canEdit && (
            <Space>
              <GuardedButton type="primary" htmlType="submit" loading={saving.isPending}>
                保存
              </GuardedButton>
              <Button disabled={false} onClick={() => navigate('/competition/brand')}>
                取消
              </Button>
            </Space>
          )}
        </Form>
      )}
    </Card>
  );
}
