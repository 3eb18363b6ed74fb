import fs from 'node:fs';
import path from 'node:path';
import { startSmtp } from '../server/test/smtp.ts';

/**
 * The end-to-end run's mail server (Playwright starts it beside the platform): a real SMTP server on E2E_SMTP_PORT
 * that writes every email it receives into E2E_MAILBOX, where specs read them as a person reads a mailbox.
 */
const dir = process.env.E2E_MAILBOX!;
fs.mkdirSync(dir, { recursive: true });
const smtp = await startSmtp({ port: Number(process.env.E2E_SMTP_PORT), dir });
console.log(`mailbox listening at ${smtp.url}, writing to ${path.resolve(dir)}`);
