import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import aws4 from 'aws4';
import S3rver from 's3rver';

export const S3_ACCESS_KEY_ID = 'S3RVER';
export const S3_SECRET_ACCESS_KEY = 'S3RVER';
export const S3_BUCKET = 'contest';

/**
 * An S3-protocol server in this process: s3rver, with the bucket `contest`. s3rver checks the access key id but not
 * SigV4 signatures, so a front checks them as AWS does, recomputing each request's signature from the headers it
 * lists as signed and the secret, and checks that the body's sha256 is the one declared in `x-amz-content-sha256`.
 */
export async function startS3(): Promise<{ endpoint: string; requests: number; close(): Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-s3-'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: S3_BUCKET, configs: [] }] });
  const { port } = (await s3rver.run()) as AddressInfo;

  const refuse = (res: http.ServerResponse, status: number, code: string) => {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`);
  };
  const state = { requests: 0 };
  const front = http.createServer((req, res) => {
    state.requests++;
    const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
    if (!auth) return refuse(res, 403, 'AccessDenied');
    const [, accessKeyId, , region, signedHeaders, signature] = auth;
    if (accessKeyId !== S3_ACCESS_KEY_ID) return refuse(res, 403, 'InvalidAccessKeyId');
    const headers: Record<string, string> = {};
    for (const name of signedHeaders!.split(';')) headers[name] = String(req.headers[name] ?? '');
    const expected = aws4.sign({ method: req.method, path: req.url, service: 's3', region, headers }, { accessKeyId, secretAccessKey: S3_SECRET_ACCESS_KEY });
    const expectedSignature = /Signature=([0-9a-f]{64})/.exec(String(expected.headers!.Authorization))?.[1];
    if (expectedSignature !== signature || !signedHeaders!.split(';').includes('x-amz-content-sha256')) return refuse(res, 403, 'SignatureDoesNotMatch');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const payload = Buffer.concat(chunks);
      const declared = req.headers['x-amz-content-sha256'];
      if (declared !== 'UNSIGNED-PAYLOAD' && declared !== createHash('sha256').update(payload).digest('hex')) return refuse(res, 400, 'XAmzContentSHA256Mismatch');
      const forward = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (upstream) => {
        res.writeHead(upstream.statusCode!, upstream.headers);
        upstream.pipe(res);
      });
      forward.on('error', () => res.destroy());
      forward.end(payload);
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    get requests() {
      return state.requests;
    },
    async close() {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await s3rver.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The environment that points the app at the server `startS3` started. */
export const s3Env = (endpoint: string) => ({ S3_ENDPOINT: endpoint, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY });
