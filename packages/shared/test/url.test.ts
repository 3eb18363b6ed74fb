import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValidUrl } from '../src/index.ts';
import { isIpv6Address } from '../src/validation/url.ts';

/** The runtime's WHATWG URL parser (what a browser opens), typed here: this package compiles without DOM or Node types. */
const WhatwgUrl = (globalThis as unknown as { URL: new (input: string) => { hostname: string } }).URL;

/** §5 URL: "http, https or ftp, with a host or IP, optional port and optional path" — IPv6 literals. */
describe('isValidUrl with IPv6 literal hosts', () => {
  it.each([
    ['documentation address with port and path', 'http://[2001:db8::1]:8080/spec'],
    ['loopback', 'http://[::1]/'],
    ['loopback without path', 'https://[::1]'],
    ['unspecified', 'http://[::]/'],
    ['all eight groups', 'http://[2001:0db8:0000:0000:0000:ff00:0042:8329]/'],
    ['upper-case hex', 'https://[2001:DB8::ABCD]/x'],
    ['compression at the end', 'http://[fe80::]/'],
    ['compression for one group', 'http://[1:2:3:4:5:6:7::]/'],
    ['compression for one group at the start', 'http://[::2:3:4:5:6:7:8]/'],
    ['IPv4-mapped', 'http://[::ffff:192.0.2.1]/'],
    ['IPv4 tail after six groups', 'http://[1:2:3:4:5:6:192.0.2.1]/'],
    ['NAT64 prefix with IPv4 tail', 'http://[64:ff9b::192.0.2.33]:80/a?b=1#c'],
    ['ftp', 'ftp://[2001:db8::2]/pub/file.tar.gz'],
    ['query right after the host', 'https://[2001:db8::1]?q=1'],
    ['fragment right after the host', 'https://[2001:db8::1]#top'],
    ['highest port', 'https://[2001:db8::1]:65535/'],
  ])('accepts %s: %s', (_name, url) => {
    expect(isValidUrl(url)).toBe(true);
    // Whatever we accept, a browser opens: the WHATWG parser reads the same host.
    expect(new WhatwgUrl(url).hostname.startsWith('[')).toBe(true);
  });

  it.each([
    ['no brackets', 'http://2001:db8::1/'],
    ['no brackets, loopback', 'http://::1/'],
    ['opening bracket only', 'http://[2001:db8::1/'],
    ['closing bracket only', 'http://2001:db8::1]/'],
    ['doubled closing bracket', 'http://[::1]]/'],
    ['nested brackets', 'http://[[::1]]/'],
    ['empty brackets', 'http://[]/'],
    ['text before the brackets', 'http://a[::1]/'],
    ['port glued to the bracket', 'http://[::1]8080/'],
    ['empty port', 'http://[::1]:/'],
    ['port 0', 'http://[::1]:0/'],
    ['port above 65535', 'http://[::1]:65536/'],
    ['zone id', 'http://[fe80::1%25eth0]/'],
    ['raw zone id', 'http://[fe80::1%eth0]/'],
    ['IPvFuture', 'http://[v1.fe80::a]/'],
    ['IPv4 in brackets', 'http://[192.168.0.1]/'],
    ['name in brackets', 'http://[example.com]/'],
    ['two compressions', 'http://[2001::db8::1]/'],
    ['triple colon', 'http://[2001:::1]/'],
    ['nine groups', 'http://[1:2:3:4:5:6:7:8:9]/'],
    ['seven groups without compression', 'http://[1:2:3:4:5:6:7]/'],
    ['eight groups plus compression', 'http://[1:2:3:4:5:6:7:8::]/'],
    ['compression standing for no group', 'http://[1:2:3:4::5:6:7:8]/'],
    ['group of five digits', 'http://[2001:db8::12345]/'],
    ['non-hex digit', 'http://[2001:db8::g]/'],
    ['leading single colon', 'http://[:1::2]/'],
    ['trailing single colon', 'http://[1::2:]/'],
    ['single colon only', 'http://[:]/'],
    ['IPv4 tail in the middle', 'http://[::1.2.3.4:5]/'],
    ['IPv4 tail before the compression', 'http://[1.2.3.4::]/'],
    ['IPv4 tail octet above 255', 'http://[::ffff:192.0.2.256]/'],
    ['IPv4 tail with three octets', 'http://[::ffff:192.0.2]/'],
    ['IPv4 tail with a leading zero', 'http://[::ffff:192.0.2.01]/'],
    ['IPv4 tail after seven groups', 'http://[1:2:3:4:5:6:7:1.2.3.4]/'],
    ['IPv4 tail filling the compression', 'http://[1:2:3:4:5:6::1.2.3.4]/'],
    ['space inside', 'http://[::1 ]/'],
    ['user info', 'http://user@[::1]/'],
    ['disguised host', 'http://[::1]@evil.com/'],
    ['other scheme', 'javascript://[::1]/%0Aalert(1)'],
  ])('refuses %s: %s', (_name, url) => {
    expect(isValidUrl(url)).toBe(false);
  });

  const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
  const groups = fc.array(group, { minLength: 8, maxLength: 8 });

  it('accepts any address of eight groups, and any compression of it, exactly as the URL parser does', () => {
    fc.assert(
      fc.property(groups, fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 8 }), (g, from, length) => {
        const full = g.join(':');
        expect(isIpv6Address(full)).toBe(true);
        const to = Math.min(8, from + length);
        const compressed = `${g.slice(0, from).join(':')}::${g.slice(to).join(':')}`;
        expect(isIpv6Address(compressed)).toBe(true);
        expect(isValidUrl(`http://[${compressed}]:8080/spec`)).toBe(true);
        expect(() => new WhatwgUrl(`http://[${compressed}]:8080/spec`)).not.toThrow();
      }),
    );
  });

  it('refuses an address with a group too many, or a group too long', () => {
    fc.assert(
      fc.property(groups, group, fc.integer({ min: 0, max: 7 }), (g, extra, at) => {
        expect(isValidUrl(`http://[${[...g, extra].join(':')}]/`)).toBe(false);
        const long = g.map((x, i) => (i === at ? `1${x.padStart(4, '0')}` : x));
        expect(isValidUrl(`http://[${long.join(':')}]/`)).toBe(false);
      }),
    );
  });

  it('agrees with the WHATWG URL parser on bracketed strings made of hex digits, colons and dots', () => {
    const char = fc.constantFrom('0', '1', 'a', 'f', ':', ':', ':', '.', '9');
    fc.assert(
      fc.property(
        fc.array(char, { maxLength: 24 }).map((cs) => cs.join('')),
        (inner) => {
          const url = `http://[${inner}]/`;
          let parsed = true;
          try {
            new WhatwgUrl(url);
          } catch {
            parsed = false;
          }
          expect(isValidUrl(url)).toBe(parsed);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
