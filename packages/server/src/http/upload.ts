/**
 * Multipart uploads (network import): @fastify/multipart with hard limits — at most two files (`file`,
 * `nodesFile`) of at most the body limit each, a few short fields — streamed to a private temporary
 * directory that is removed when the request is done, so an upload never sits in memory. Anything over a
 * limit is 413 PAYLOAD_TOO_LARGE; a body that is not multipart is 415. U+0000 in a field or a file name
 * is 400 (docs/security.md "Input at the edge").
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { problemDetail } from '../domain/errors.ts';
import { HttpProblem } from './error-codes.ts';
import { NUL_MESSAGE } from './json-body.ts';

export interface SavedFile {
  path: string;
  filename: string;
  bytes: number;
}

export interface Upload {
  files: Map<string, SavedFile>;
  fields: Record<string, string>;
  cleanup(): Promise<void>;
}

export const UPLOAD_FILE_FIELDS = ['file', 'nodesFile'] as const;
export const UPLOAD_TEXT_FIELDS = ['name', 'description', 'status', 'isDirected', 'owner', 'format'] as const;

export async function registerUploads(app: FastifyInstance, maxFileBytes: number): Promise<void> {
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: maxFileBytes, files: UPLOAD_FILE_FIELDS.length, fields: UPLOAD_TEXT_FIELDS.length, fieldSize: 64 * 1024, parts: 16, headerPairs: 64 },
  });
}

const LIMIT_CODES = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT']);

/** Reads the parts of a multipart request; the caller must `cleanup()` (in a finally). */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new HttpProblem('UNSUPPORTED_MEDIA_TYPE', 'send the file as multipart/form-data (a part named "file")');
  }
  const dir = await mkdtemp(join(tmpdir(), 'netloom-upload-'));
  const upload: Upload = { files: new Map(), fields: {}, cleanup: () => rm(dir, { recursive: true, force: true }) };
  const problems: { path: string; message: string }[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (!(UPLOAD_FILE_FIELDS as readonly string[]).includes(part.fieldname) || upload.files.has(part.fieldname)) {
          part.file.resume();
          problems.push({ path: `/${part.fieldname}`, message: `is not a known file part (send "file" and, for a CSV edge list, "nodesFile")` });
          continue;
        }
        if (part.filename?.includes('\u0000')) {
          // PostgreSQL text cannot hold U+0000 and the file name may become the network's name (issue 19, Low)
          part.file.resume();
          problems.push({ path: `/${part.fieldname}`, message: `the file name ${NUL_MESSAGE}` });
          continue;
        }
        const path = join(dir, `${upload.files.size}.upload`);
        await pipeline(part.file, createWriteStream(path, { mode: 0o600 }));
        upload.files.set(part.fieldname, { path, filename: part.filename ?? '', bytes: part.file.bytesRead });
      } else if ((UPLOAD_TEXT_FIELDS as readonly string[]).includes(part.fieldname)) {
        const value = String(part.value);
        if (value.includes('\u0000')) problems.push({ path: `/${part.fieldname}`, message: NUL_MESSAGE });
        else upload.fields[part.fieldname] = value;
      } else {
        problems.push({ path: `/${part.fieldname}`, message: 'is not a known parameter' });
      }
    }
  } catch (err) {
    await upload.cleanup();
    const code = (err as { code?: string }).code ?? '';
    if (LIMIT_CODES.has(code)) throw new HttpProblem('PAYLOAD_TOO_LARGE', `upload over the limits (${(err as Error).message})`);
    if (err instanceof HttpProblem) throw err;
    throw new HttpProblem('INVALID_ARGS', `malformed multipart body: ${(err as Error).message}`, { errors: [{ path: '', message: 'malformed multipart body' }] });
  }
  if (problems.length > 0) {
    await upload.cleanup();
    throw new HttpProblem('INVALID_ARGS', problemDetail(problems), { errors: problems });
  }
  return upload;
}

/** `attachment; filename="x.xlsx"; filename*=UTF-8''…` */
export function contentDisposition(ascii: string, utf8: string): string {
  return `attachment; filename="${ascii.replace(/["\\]/g, '')}"; filename*=UTF-8''${encodeURIComponent(utf8)}`;
}
