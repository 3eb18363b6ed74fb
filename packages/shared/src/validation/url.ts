/**
 * Links users may enter (contest pages, attachments). Only http, https and ftp, so `javascript:` and
 * `data:` URLs can never reach an href. User info (`user@host`) is rejected on purpose: it is the
 * classic way to disguise the real host (`http://trusted.com@evil.com`).
 */
const URL_PATTERN =
  /^(?:https?|ftp):\/\/(?<host>[^/?#:\s@]+)(?::(?<port>\d{1,5}))?(?:[/?#][^\s\p{Cc}]*)?$/iu;
const IPV4_PATTERN = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
// The top-level label must not be numeric, otherwise `999.1.1.1` would pass as a domain name.
const DOMAIN_PATTERN = new RegExp(`^(?:${LABEL}\\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$`, 'i');

function isValidHost(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  if (IPV4_PATTERN.test(host)) return host.split('.').every((octet) => Number(octet) <= 255);
  return host.length <= 253 && DOMAIN_PATTERN.test(host);
}

export function isValidUrl(value: string): boolean {
  const match = URL_PATTERN.exec(value);
  if (!match?.groups) return false;
  const { host, port } = match.groups as { host: string; port?: string };
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  return isValidHost(host);
}
