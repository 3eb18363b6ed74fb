import { Spin } from 'antd';
import { useEffect } from 'react';
import { http } from '../../../common/http.ts';

/** `/logout`: ends the session, clears local storage and returns home (spec §7). */
export default function LogoutPage() {
  useEffect(() => {
    http
      .post('/api/auth/logout', undefined, { silent: true })
      .catch(() => undefined)
      .finally(() => {
        localStorage.clear();
        sessionStorage.clear();
        location.replace('/');
      });
  }, []);
  return <Spin tip="正在退出…" fullscreen />;
}
