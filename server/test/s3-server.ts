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
 * s3rver takes multipart uploads (initiate, upload part, complete) but lacks the rest of them, which the front answers
 * from s3rver's own folder of uploads in progress: ListParts, AbortMultipartUpload and ListMultipartUploads, and
 * NoSuchUpload for a part or a completion sent to an upload no longer in progress (s3rver would quietly start one).
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
    const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? '',
    );
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
      if (declared !== 'UNSIGNED-PAYLOAD' && declared !== createHash('sha256').update(payload).digest('hex'))
        return refuse(res, 400, 'XAmzContentSHA256Mismatch');
      if (multipart(req, res)) return;
      const forward = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (upstream) => {
        res.writeHead(upstream.statusCode!, upstream.headers);
        upstream.pipe(res);
      });
      forward.on('error', () => res.destroy());
      forward.end(payload);
    });
  });
  /** Answers the multipart requests s3rver lacks; false for the others, which go on to s3rver. */
  const multipart = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const url = new URL(req.url!, 'http://s3');
    const [bucket, ...keyParts] = url.pathname.slice(1).split('/').map(decodeURIComponent);
    const key = keyParts.join('/');
    const uploads = path.join(directory, bucket!, '._S3rver_uploads');
    const xml = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
    };
    const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    if (!key && req.method === 'GET' && url.searchParams.has('uploads')) {
      const prefix = url.searchParams.get('prefix') ?? '';
      const found = fs.existsSync(uploads) ? fs.readdirSync(uploads) : [];
      const listed = found
        .map((uploadId) => ({
          uploadId,
          key: fs.readFileSync(path.join(uploads, uploadId, 'key'), 'utf8'),
          initiated: fs.statSync(path.join(uploads, uploadId, 'key')).mtime,
        }))
        .filter((u) => u.key.startsWith(prefix));
      const items = listed.map(
        (u) => `<Upload><Key>${escape(u.key)}</Key><UploadId>${u.uploadId}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated></Upload>`,
      );
      xml(200, `<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${items.join('')}</ListMultipartUploadsResult>`);
      return true;
    }
    const uploadId = url.searchParams.get('uploadId');
    if (!key || !uploadId) return false;
    const dir = path.join(uploads, path.basename(uploadId));
    const keyFile = path.join(dir, 'key');
    if (!fs.existsSync(keyFile) || fs.readFileSync(keyFile, 'utf8') !== key) {
      refuse(res, 404, 'NoSuchUpload');
      return true;
    }
    if (req.method === 'GET') {
      const parts = fs
        .readdirSync(dir)
        .filter((name) => /^\d+$/.test(name))
        .map(Number)
        .sort((a, b) => a - b)
        .map((n) => {
          const file = path.join(dir, String(n));
          const st = fs.statSync(file);
          return `<Part><PartNumber>${n}</PartNumber><LastModified>${st.mtime.toISOString()}</LastModified><ETag>"${fs.readFileSync(`${file}.md5`, 'utf8')}"</ETag><Size>${st.size}</Size></Part>`;
        });
      xml(
        200,
        `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${escape(key)}</Key><UploadId>${uploadId}</UploadId><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
      );
      return true;
    }
    if (req.method === 'DELETE') {
      fs.rmSync(dir, { recursive: true, force: true });
      res.writeHead(204).end();
      return true;
    }
    return false;
  };
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
