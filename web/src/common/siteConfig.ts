import { useQuery } from '@tanstack/react-query';
import { authApi, authKeys } from '../api/auth.ts';

export function useAuthConfig() {
  return useQuery({
    queryKey: authKeys.config,
    queryFn: () => authApi.config(),
    staleTime: Infinity,
  });
}
