/**
 * 实名认证: a person proves their name (a 居民身份证 checked by the provider, other documents reviewed by the platform);
 * one document proves one account. What other modules may use: refusing a person (or a team) not verified where a
 * competition requires it, or where a step needs a real name (a 公示 objection); the simulator's register for the composition root.
 */
export { assertVerified, isVerified, simulatorRegister, teamRefusal } from './service.ts';
