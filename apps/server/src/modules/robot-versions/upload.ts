import type { FastifyRequest } from 'fastify';
import { AppError, invalidField } from '../../lib/errors.js';
import type { IncomingPackage, RobotVersionService } from './service.js';

/** The multipart part that carries the package; the text parts are the version's fields. */
export const FILE_PART = 'file';

/** Browsers used to send a full client path; keep the last segment, printable, bounded. */
function baseName(fileName: string): string {
  const last = fileName.split(/[\\/]/).pop() ?? '';
  const printable = [...last].filter((ch) => ch >= ' ' && ch !== '\u007f').join('');
  return printable.trim().slice(0, 255);
}

/**
 * What went wrong while reading the body, as an answer: multipart's limits and busboy's parse
 * errors (a truncated upload, a broken boundary) are the caller's 400; a failed system call
 * (disk full) or a bug stays a 500.
 */
function asAppError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return invalidField(FILE_PART, 'package_too_large');
  if (code === 'FST_FILES_LIMIT') return invalidField(FILE_PART, 'invalid_value');
  const serverSide =
    (error as { syscall?: unknown }).syscall !== undefined ||
    error instanceof TypeError ||
    error instanceof RangeError ||
    error instanceof ReferenceError;
  return serverSide ? error : new AppError('invalid_input');
}

/**
 * Reads the whole multipart body: text parts into `fields` (first value wins), the `file`
 * part through `versions.receive` into a temp file. On a broken body the temp file is dropped.
 */
export async function readPackageForm(request: FastifyRequest, versions: RobotVersionService) {
  if (!request.isMultipart()) throw new AppError('unsupported_media_type');
  const fields: Record<string, string> = {};
  let incoming: IncomingPackage | undefined;
  try {
    // One byte over the limit is enough for `receive` to see the file is too large.
    const parts = request.parts({ limits: { fileSize: versions.maxPackageBytes + 1 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (!Object.hasOwn(fields, part.fieldname)) fields[part.fieldname] = String(part.value);
      } else if (part.fieldname === FILE_PART && !incoming) {
        incoming = await versions.receive(baseName(part.filename), part.file);
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    await versions.discard(incoming);
    throw asAppError(error);
  }
  return { fields, incoming };
}
