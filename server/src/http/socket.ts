import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Sets how long the request's socket may stay silent before the HTTP server closes it (0: no limit), for requests that
 * outlive CONNECTION_TIMEOUT_SECONDS on purpose: a resumable upload's body, a scoring program tried while the organiser
 * waits. Requests injected by tests have no real socket.
 */
export const idleLimit = (req: FastifyRequest, ms: number) => {
  const socket = req.raw.socket as Socket | undefined;
  if (typeof socket?.setTimeout === 'function') socket.setTimeout(ms);
};
