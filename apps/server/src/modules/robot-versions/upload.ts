import type { FastifyRequest } from 'fastify';
import { clientFileName, readMultipartForm } from '../../http/multipart-form.js';
import type { RobotVersionService } from './service.js';

/** The multipart part that carries the package; the text parts are the version's fields. */
export const FILE_PART = 'file';

/**
 * Reads the whole multipart body: text parts into `fields` (first value wins), the `file`
 * part through `versions.receive` into a temp file. On a broken body the temp file is dropped.
 */
export async function readPackageForm(request: FastifyRequest, versions: RobotVersionService) {
  const { fields, received } = await readMultipartForm(request, {
    fileField: FILE_PART,
    maxBytes: versions.maxPackageBytes,
    tooLarge: 'package_too_large',
    receive: (part) => versions.receive(clientFileName(part.filename, 255), part.file),
    discard: (incoming) => versions.discard(incoming),
  });
  return { fields, incoming: received };
}
