import { useQuery } from '@tanstack/react-query';
import { Card } from 'antd';
import { certificateApi, certificateKeys } from '#src/api/certificates.ts';
import { CertificateTable } from './CertificateTable.tsx';

/** `/userCenter/myCertificate`: the caller's certificates across competitions. */
export default function MyCertificatePage() {
  const { data, isLoading } = useQuery({ queryKey: certificateKeys.mine, queryFn: () => certificateApi.mine() });
  return (
    <Card title="我的证书">
      <CertificateTable data={data} loading={isLoading} showCompetition />
    </Card>
  );
}
