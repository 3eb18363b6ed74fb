import { Button, Result } from 'antd';

/** The `/404` and `/401` pages every entry has (spec §2.1, §2.3). */
export function ErrorPage({ code, homeHref, onHome }: { code: 404 | 401; homeHref?: string; onHome?: () => void }) {
  const texts = {
    404: { title: '404', subTitle: '抱歉，您访问的页面不存在。' },
    401: { title: '401', subTitle: '抱歉，您没有权限访问此页面。' },
  }[code];
  return (
    <Result
      status={code === 404 ? '404' : '403'}
      title={texts.title}
      subTitle={texts.subTitle}
      extra={
        <Button type="primary" href={homeHref} onClick={onHome}>
          返回首页
        </Button>
      }
    />
  );
}
