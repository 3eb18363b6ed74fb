import type { SmsConfigBody, SmsConfigView } from '@contest/shared';
import { http } from '../common/http.ts';

/** The platform's SMS provider, as 系统管理 → 消息服务 sets it (issue 35). */
export const smsKeys = { config: ['smsConfig'] as const };

export const smsApi = {
  config: () => http.get<SmsConfigView>('/api/system/sms/config'),
  save: (body: SmsConfigBody) => http.put<void>('/api/system/sms/config', body),
  /** A test text sent at once with the saved settings: the provider's receipt number, or its refusal as the error. */
  test: (phone: string) => http.post<{ providerMessageId: string }>('/api/system/sms/test', { phone }),
};
