/**
 * SMS: the platform's text-message provider (Aliyun or Tencent Cloud, set in 系统管理 → 消息服务) and the development
 * simulator's page. What other modules may use: whether texts are sent, and sending one now (the outbox's delivery);
 * the simulator's recorder for the composition root.
 */
export { recordSimulated, sendNow, smsEnabled, SMS_OFF } from './service.ts';
