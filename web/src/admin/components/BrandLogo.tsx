import { Image, Typography } from 'antd';
import { avatarUrl } from '../../common/files.ts';

/** A brand's logo as a small table cell picture (click to enlarge). */
export function BrandLogo({ logo, name }: { logo: string | null; name: string }) {
  if (!logo) return <Typography.Text type="secondary">无</Typography.Text>;
  return <Image src={avatarUrl(logo)} alt={name} width={72} height={40} style={{ objectFit: 'contain' }} />;
}
