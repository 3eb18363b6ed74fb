import type { Certificate } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Card } from 'antd';
import { http } from '../../../common/http.ts';
import { CertificateTable } from './CertificateTable.tsx';

/** `/userCenter/myCertificate`: the caller's certificates across competitions. */
export default function MyCertificatePage() {
  const { data, isLoading } = useQuery({ queryKey: ['certificates', 'mine'], queryFn: () => http.get<Certificate[]>('/api/review/certificate/cert/list') });
  return (
    <Card title="我的证书">
      <CertificateTable data={data} loading={isLoading} showCompetition />
    </Card>
  );
}
