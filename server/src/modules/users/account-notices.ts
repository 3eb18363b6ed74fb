import type { Ctx } from '../../context.ts';
import { beijing } from '../../time.ts';
import { notify } from '../notices/index.ts';

/**
 * Tells an account its password changed (in-app, and by email and SMS unless turned off under 账号与实名认证), so that
 * a change its owner did not make is seen.
 */
export async function tellPasswordChanged(deps: Ctx, userId: number, how: string) {
  const at = beijing(deps.clock.now()).slice(0, 16).replace('T', ' ');
  await notify(deps, [userId], {
    title: '账号密码已修改',
    content: `你的账号密码已于${at}（北京时间）${how}。如果不是你本人的操作，请立即在登录页通过“忘记密码”重置密码，并联系平台客服。`,
    source: 'account.password',
  });
}
