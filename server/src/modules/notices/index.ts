/**
 * Notices and each user's box. What other modules may use: automatic personal messages (`notify`), the user ids of
 * teams' members they go to, and the order messages.
 */
export { notify, orderMessages, teamUserIds } from './service.ts';
