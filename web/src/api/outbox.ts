import type { MessagePreferences } from '@contest/shared';
import { http } from '../common/http.ts';

/** A person's message preferences, and one-click unsubscribing from an email (issue 35). */
export const outboxKeys = { preferences: ['messagePreferences'] as const };

export const outboxApi = {
  preferences: () => http.get<MessagePreferences>('/api/account/message-preferences'),
  savePreferences: (kinds: MessagePreferences['kinds']) => http.put<MessagePreferences>('/api/account/message-preferences', { kinds }),
  /** Silent: the page shows a refusal itself. */
  unsubscribe: (token: string) => http.post<{ kind: string; channel: string; label: string }>('/api/account/unsubscribe', { token }, { silent: true }),
};
