import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3210);
// The config is read by every worker; only the main process starts the server, and it reads this once.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'contest-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export const ADMIN_PASSWORD = 'Admin12345';
/** Where the run's mail server writes the emails it receives (mailbox.ts; specs read them with fixtures' mailTo). */
const smtpPort = port + 1;
process.env.E2E_MAILBOX ??= path.join(dataDir, 'mailbox');

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1280, height: 800 },
    // As a person who asked for less motion: dialogs open at once, so a click never lands during their zoom.
    contextOptions: { reducedMotion: 'reduce' },
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: 'node --import tsx e2e/mailbox.ts',
      cwd: '..',
      port: smtpPort,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      env: { E2E_SMTP_PORT: String(smtpPort), E2E_MAILBOX: process.env.E2E_MAILBOX },
    },
    {
      command: 'node --import tsx server/src/main.ts',
      cwd: '..',
      url: `http://localhost:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        CONTEST_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SEED_DEMO: '1',
        LOG_LEVEL: 'warn',
        PAYMENT_SIMULATOR: '1',
        SMS_SIMULATOR: '1',
        WECHAT_SIMULATOR: '1',
        IDCHECK_SIMULATOR: '1',
        // A reply with a field its route's response schema does not declare fails (500) here rather than losing it.
        STRICT_RESPONSES: '1',
        PUBLIC_URL: `http://localhost:${port}`,
        // Every spec registers its accounts from this one address; the organiser's journey alone brings a class of 30.
        REGISTER_MAX_PER_IP: '500',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_FROM: '竞赛平台 <noreply@contest.test>',
      },
    },
  ],
});
