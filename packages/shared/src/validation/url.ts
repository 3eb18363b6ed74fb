/**
 * Links users may enter (contest pages, attachments). Only http, https and ftp, so `javascript:` and
 * `data:` URLs can never reach an href. User info (`user@host`) is rejected on purpose: it is the
 * classic way to disguise the real host (`http://trusted.com@evil.com`).
 *
 * The host (§5 "a host or IP") is one of: `localhost`; a domain name whose top-level label is not
 * numeric; a dotted-decimal IPv4 address; or an IPv6 literal in square brackets (RFC 3986
 * `IP-literal`, as browsers open it): eight groups of 1-4 hex digits, at most one `::` standing for
 * one or more zero groups, optionally ending in a dotted IPv4 (`::ffff:192.0.2.1`) whose octets have
 * no leading zero. Refused on purpose: an IPv6 address without brackets, unbalanced or empty
 * brackets, zone ids (`[fe80::1%25eth0]`, RFC 6874: browsers do not open them and a link on a
 * contest page never needs one), IPvFuture (`[v1.x]`), and IPv4 or names inside brackets.
 */
const URL_PATTERN = /^(?:https?|ftp):\/\/(?<host>\[[^\]/?#\s@]*\]|[^[\]/?#:\s@]+)(?::(?<port>\d{1,5}))?(?:[/?#][^\s\p{Cc}]*)?$/iu;
const IPV4_PATTERN = /^\d{1,3}(?:\.\d{1,3}){3}$/;
/** The IPv4 tail of an IPv6 literal: as the WHATWG URL parser reads it, no leading zeros. */
const IPV6_IPV4_TAIL = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
// The top-level label must not be numeric, otherwise `999.1.1.1` would pass as a domain name.
const DOMAIN_PATTERN = new RegExp(`^(?:${LABEL}\\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$`, 'i');

function isIpv4(value: string, pattern: RegExp = IPV4_PATTERN): boolean {
  return pattern.test(value) && value.split('.').every((octet) => Number(octet) <= 255);
}

/** Groups of a `:`-separated run; the last may be an IPv4 tail, which counts as two groups. */
function countGroups(run: string, allowIpv4Tail: boolean): number | null {
  if (run === '') return 0;
  const parts = run.split(':');
  let groups = 0;
  for (const [i, part] of parts.entries()) {
    if (HEX_GROUP.test(part)) groups += 1;
    else if (allowIpv4Tail && i === parts.length - 1 && isIpv4(part, IPV6_IPV4_TAIL)) groups += 2;
    else return null; // empty group (a lone `:` at an edge or a `:::`), non-hex, more than 4 digits, zone id
  }
  return groups;
}

/** An IPv6 address as written between the brackets of a URL (no zone id). */
export function isIpv6Address(value: string): boolean {
  const halves = value.split('::');
  if (halves.length > 2) return false; // `::` at most once
  if (halves.length === 1) return countGroups(value, true) === 8;
  const [head, tail] = halves as [string, string];
  const before = countGroups(head, false);
  const after = countGroups(tail, true);
  if (before === null || after === null) return false;
  return before + after <= 7; // `::` stands for at least one zero group
}

function isValidHost(host: string): boolean {
  if (host.startsWith('[')) return host.endsWith(']') && isIpv6Address(host.slice(1, -1));
  if (host.toLowerCase() === 'localhost') return true;
  if (IPV4_PATTERN.test(host)) return isIpv4(host);
  return host.length <= 253 && DOMAIN_PATTERN.test(host);
}

export function isValidUrl(value: string): boolean {
  const match = URL_PATTERN.exec(value);
  if (!match?.groups) return false;
  const { host, port } = match.groups as { host: string; port?: string };
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  return isValidHost(host);
}
