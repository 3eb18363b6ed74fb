import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Encrypts personal data and payment secrets at rest (AES-256-GCM, a fresh nonce per value). */
export interface Cipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /**
   * A keyed hash (HMAC-SHA256, hex) of `value` under a key derived from SECRET_KEY for `purpose`: what is stored of a
   * value that must be matched but never read back (an SMS code, an ID number), so that a copy of the database alone
   * cannot test guesses against it.
   */
  mac(purpose: string, value: string): string;
}

const VERSION = 'v1';

export function aesCipher(key: Buffer): Cipher {
  if (key.length !== 32) throw new Error('SECRET_KEY must be 32 bytes (64 hex characters or 44 base64 characters)');
  const macKeys = new Map<string, Buffer>();
  return {
    mac(purpose, value) {
      let k = macKeys.get(purpose);
      if (!k) macKeys.set(purpose, (k = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `contest:${purpose}`, 32))));
      return createHmac('sha256', k).update(value, 'utf8').digest('hex');
    },
    encrypt(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return [VERSION, iv.toString('base64'), c.getAuthTag().toString('base64'), body.toString('base64')].join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed value');
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      d.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([d.update(Buffer.from(body, 'base64')), d.final()]).toString('utf8');
    },
  };
}

/**
 * The key comes from SECRET_KEY; without it, one is made on first start and kept in DATA_DIR/secret.key (mode 0600).
 * Several server instances must share SECRET_KEY.
 */
export function loadSecretKey(secretKey: string | undefined, dataDir: string): Buffer {
  if (secretKey) return Buffer.from(secretKey, /^[0-9a-f]{64}$/i.test(secretKey) ? 'hex' : 'base64');
  const file = path.join(dataDir, 'secret.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
}
