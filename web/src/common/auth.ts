import type { PermissionCode, UserInfo } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal } from 'antd';
import { accountApi, accountKeys } from '../api/users.ts';
import { LOGIN_FLAG_KEY } from './storage.ts';

/** The current user's cache entry (`accountKeys.current`). */
export const USER_QUERY_KEY = accountKeys.current;

/** Loads the current user; keeps the login flag of spec §4 in step with the answer. */
export async function fetchCurrentUser(): Promise<UserInfo | null> {
  try {
    const user = await accountApi.current();
    if (user) localStorage.setItem(LOGIN_FLAG_KEY, '1');
    else localStorage.removeItem(LOGIN_FLAG_KEY);
    return user;
  } catch (err) {
    localStorage.removeItem(LOGIN_FLAG_KEY);
    throw err;
  }
}

export function useCurrentUser() {
  return useQuery({ queryKey: accountKeys.current, queryFn: fetchCurrentUser, staleTime: 60_000, retry: false });
}

/** Whether the caller acts for the platform (every organisation), as the server says in the user info. */
export const useIsPlatform = () => useCurrentUser().data?.platform ?? false;

/** The caller's permission codes, fetched after the user info loads (spec §6). */
export function usePermissions() {
  const { data: user } = useCurrentUser();
  const query = useQuery({
    queryKey: accountKeys.permissions(user?.id ?? 0),
    queryFn: () => accountApi.permissions(),
    enabled: Boolean(user),
    staleTime: 60_000,
  });
  const codes = user ? (query.data ?? []) : [];
  // `has` takes a code of the shared tables, so a misspelt code does not compile.
  return { codes, loading: Boolean(user) && query.isLoading, has: (code: PermissionCode) => codes.includes(code) };
}

export function useRefreshUser() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: accountKeys.current });
}

/** Spec §8: confirmation first, then `/logout` ends the session and clears local storage. */
export function confirmLogout(): void {
  Modal.confirm({
    title: '提示',
    content: '确定注销并退出系统吗？',
    okText: '确定',
    cancelText: '取消',
    onOk: () => {
      location.href = '/logout';
    },
  });
}
