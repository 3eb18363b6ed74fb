import { Spin } from 'antd';
import { useEffect } from 'react';
import { authApi } from '#src/api/auth.ts';

/** `/logout`: ends the session, clears local storage and returns home (spec §7). */
export default function LogoutPage() {
  useEffect(() => {
    authApi
      .logout()
      .catch(() => undefined)
      .finally(() => {
        localStorage.clear();
        sessionStorage.clear();
        location.replace('/');
      });
  }, []);
  return <Spin tip="正在退出…" fullscreen />;
}
