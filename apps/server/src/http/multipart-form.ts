import type { MultipartFile } from '@fastify/multipart';
import type { MessageKey } from '@rota/contract';
import type { FastifyRequest } from 'fastify';
import { AppError, invalidField } from '../lib/errors.js';

/** Browsers used to send a full client path; keep the last segment, printable, bounded. */
export function clientFileName(fileName: string, maxLength: number): string {
  const last = fileName.split(/[\\/]/).pop() ?? '';
  const printable = [...last].filter((ch) => ch >= ' ' && ch !== '\u007f').join('');
  return printable.trim().slice(0, maxLength);
}

/** `filename="…"` takes printable ASCII only; the exact name goes in `filename*` (RFC 6266). */
export function contentDisposition(
  fileName: string,
  kind: 'attachment' | 'inline' = 'attachment',
): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const header = `${kind}; filename="${ascii}"`;
  return ascii === fileName
    ? header
    : `${header}; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * What went wrong while reading a multipart body, as an answer: multipart's limits and busboy's
 * parse errors (a truncated upload, a broken boundary) are the caller's 400; a failed system
 * call (disk full) or a bug stays a 500.
 */
function asAppError(error: unknown, fileField: string, tooLarge: MessageKey): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return invalidField(fileField, tooLarge);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return invalidField(fileField, 'invalid_value');
  }
  const serverSide =
    (error as { syscall?: unknown }).syscall !== undefined ||
    error instanceof TypeError ||
    error instanceof RangeError ||
    error instanceof ReferenceError;
  return serverSide ? error : new AppError('invalid_input');
}

/**
 * Reads a whole multipart body: text parts into `fields` (first value wins), the first part
 * named `fileField` through `receive` (which streams it somewhere, checking `maxBytes` itself;
 * multipart stops one byte later), other files drained. On a broken body what `receive` kept is
 * handed to `discard`.
 */
export async function readMultipartForm<T>(
  request: FastifyRequest,
  options: {
    fileField: string;
    maxBytes: number;
    tooLarge: MessageKey;
    receive: (part: MultipartFile) => Promise<T>;
    discard: (received: T | undefined) => Promise<void>;
  },
): Promise<{ fields: Record<string, string>; received: T | undefined }> {
  if (!request.isMultipart()) throw new AppError('unsupported_media_type');
  const fields: Record<string, string> = {};
  let received: T | undefined;
  try {
    // One byte over the limit is enough for `receive` to see the file is too large.
    const parts = request.parts({ limits: { fileSize: options.maxBytes + 1 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (!Object.hasOwn(fields, part.fieldname)) fields[part.fieldname] = String(part.value);
      } else if (part.fieldname === options.fileField && received === undefined) {
        received = await options.receive(part);
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    await options.discard(received);
    throw asAppError(error, options.fileField, options.tooLarge);
  }
  return { fields, received };
}
