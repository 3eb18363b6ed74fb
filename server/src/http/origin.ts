import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';

/** The request's own origin, from its Host header: a development stand-in for PUBLIC_URL, never used in production. */
export const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/**
 * The platform's address as others must reach it (a gateway's notifications, a certificate's QR code, the single
 * sign-on redirect): PUBLIC_URL, or outside production the request's own origin. In production without PUBLIC_URL
 * there is none, and the actions that need one are refused: an address built from the Host header is whatever the
 * caller chose to send.
 */
export const publicOrigin = (config: Config, req: FastifyRequest): string | null => config.publicUrl ?? (config.production ? null : originOf(req));

/** An action that gives others an address of the platform, refused because none is configured (production without PUBLIC_URL). */
export const publicUrlMissing = (action: string) => new AppError(503, `平台未配置对外访问地址（PUBLIC_URL），暂不能${action}，请联系管理员`);
