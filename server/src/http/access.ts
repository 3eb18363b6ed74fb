import type { PermissionCode } from '@contest/shared';

/**
 * Every route declares exactly one access rule in `config`. The app refuses to start when a route has
 * none, and the route registry is what the access-matrix test walks.
 */
export type AccessRule = { access: 'public' } | { access: 'user' } | { permission: PermissionCode };

export const PUBLIC: AccessRule = { access: 'public' };
export const USER: AccessRule = { access: 'user' };
/** A code from the tables of `@contest/shared` permissions: a misspelt code does not compile. */
export const perm = (permission: PermissionCode): AccessRule => ({ permission });

export interface RegisteredRoute {
  method: string;
  url: string;
  rule: AccessRule;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    rule?: AccessRule;
    /**
     * Called by a third party (a payment gateway, or the payer on the gateway's page), never by our own pages:
     * no session is read, so no CSRF token or same-origin check applies. Only public routes may say so.
     */
    foreign?: boolean;
  }
}

export function describeRule(rule: AccessRule): string {
  return 'permission' in rule ? `permission ${rule.permission}` : rule.access;
}
