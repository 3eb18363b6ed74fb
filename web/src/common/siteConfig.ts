import type { AuthConfig } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from './http.ts';

export function useAuthConfig() {
  return useQuery({
    queryKey: ['authConfig'],
    queryFn: () => http.get<AuthConfig>('/api/auth/config', undefined, { silent: true }),
    staleTime: Infinity,
  });
}
