import { renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on a local port for the tests of email (smtp-server): it keeps what it receives, refuses
 * `nobody@` for good (550, a bounce) and `busy@` for now (451), as mail servers do.
 */
export interface Received {
  to: string[];
  raw: string;
}

/** Starts the server on `port` (any free one by default); with `dir`, each email is also written there as a file. */
export async function startSmtp({ port: listenOn = 0, dir }: { port?: number; dir?: string } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refuse = (code: number, text: string) => callback(Object.assign(new Error(text), { responseCode: code }));
      if (address.address.startsWith('nobody@')) return refuse(550, '5.1.1 No such user here');
      if (address.address.startsWith('busy@')) return refuse(451, '4.3.0 Mailbox busy, try again later');
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') };
        received.push(mail);
        if (dir) {
          // Written under another name and renamed, so that a reader never sees half a file.
          const file = path.join(dir, `${String(received.length).padStart(5, '0')}.json`);
          writeFileSync(`${file}.part`, JSON.stringify(mail));
          renameSync(`${file}.part`, file);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(listenOn, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A received email's text body, decoded from its transfer encoding (base64 or quoted-printable, as nodemailer picks). */
export function textOf(mail: Received): string {
  const split = mail.raw.indexOf('\r\n\r\n');
  const headers = mail.raw.slice(0, split);
  const body = mail.raw.slice(split + 4);
  const encoding = /^Content-Transfer-Encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => `%${h}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return body;
}

/** The first link to this platform path in a received email's text. */
export function linkIn(mail: Received, pathname: string): URL {
  const text = textOf(mail);
  const m = new RegExp(`https?://\\S+${pathname}\\?token=[A-Za-z0-9_-]+`).exec(text);
  if (!m) throw new Error(`no ${pathname} link in the email:\n${text}`);
  return new URL(m[0]);
}
