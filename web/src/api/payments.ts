import type { PaymentConfigView, PaymentMethodOption, PayResult } from '@contest/shared';
import { http } from '../common/http.ts';

/** Payment methods, their configuration and paying an order (spec §7 `/api/payment/*`). */
export const paymentKeys = {
  configAll: ['paymentConfig'] as const,
  config: (method: number) => [...paymentKeys.configAll, method] as const,
  /** The enabled ways to pay, as a payer sees them. */
  methods: ['paymentMethods'] as const,
};

export const paymentApi = {
  config: (method: number) => http.get<PaymentConfigView>(`/api/payment/config/${method}`),
  saveConfig: (method: number, values: Record<string, unknown>) => http.put<void>(`/api/payment/config/${method}`, values),
  /** Fills the method's configuration with the development payment simulator's keys. */
  useSimulator: (method: number) => http.post<void>(`/api/payment/simulator/configure/${method}`),
  methods: () => http.get<PaymentMethodOption[]>('/api/payment/methods'),
  /** An online payment's QR code for the order. */
  pay: (orderId: number, method: number | undefined) => http.post<PayResult>(`/api/payment/pay/${orderId}`, { method }),
};
