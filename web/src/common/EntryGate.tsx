import type { SiteCode } from '@contest/shared';
import { Button, Result, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useCurrentUser, usePermissions } from './auth.ts';
import { goLogin } from './http.ts';

/**
 * What the back office and the review centre show before their layout: a login prompt when there is
 * no user, a refusal when the user lacks the entry's code.
 */
export function EntryGate({ code, name, children }: { code: SiteCode; name: string; children: ReactNode }) {
  const { data: user, isLoading, isError } = useCurrentUser();
  const { has, loading } = usePermissions();
  if (isLoading || loading) return <Spin fullscreen />;
  if (!user || isError) {
    return (
      <Result
        status="403"
        title="请先登录"
        subTitle={`登录后才能进入${name}`}
        extra={
          <Button type="primary" onClick={goLogin}>
            去登录
          </Button>
        }
      />
    );
  }
  if (!has(code)) {
    return (
      <Result
        status="403"
        title="没有访问权限"
        subTitle={`您的账号没有访问${name}的权限，如需开通请联系平台管理员。`}
        extra={
          <Button type="primary" href="/">
            返回前台
          </Button>
        }
      />
    );
  }
  return <>{children}</>;
}
