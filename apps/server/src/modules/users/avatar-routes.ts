import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AVATAR_FILE_FIELD,
  AVATAR_MAX_BYTES,
  avatarUploadResponseSchema,
  idSchema,
  translateMessage,
} from '@rota/contract';
import { actorOf, authorOf } from '../../http/auth.js';
import { bearerSecurity, errorResponses } from '../../http/responses.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import type { UserService } from './service.js';

/** A year: the name is the content's hash, so the bytes behind an address never change. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Reads the form: the `id` text part and the image, held in memory (1 MB at most). One byte
 * over the limit is read so an oversized picture is told apart from one that fits exactly.
 */
async function readAvatarForm(request: FastifyRequest) {
  if (!request.isMultipart()) throw new AppError('unsupported_media_type');
  const fields: Record<string, string> = {};
  let image: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: AVATAR_MAX_BYTES + 1 } })) {
      if (part.type === 'field') {
        if (!Object.hasOwn(fields, part.fieldname)) fields[part.fieldname] = String(part.value);
      } else if (part.fieldname === AVATAR_FILE_FIELD && !image) {
        image = await part.toBuffer();
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw invalidField(AVATAR_FILE_FIELD, 'avatar_too_large');
    if (typeof code === 'string' && code.startsWith('FST_')) throw new AppError('invalid_input');
    // A broken body (truncated, bad boundary) is the caller's; a failed system call is ours.
    if ((error as { syscall?: unknown }).syscall !== undefined) throw error;
    throw new AppError('invalid_input');
  }
  return { fields, image };
}

/** The avatar upload (multipart) and the public address pictures are served from. */
export const avatarRoutes: FastifyPluginAsyncZod<{ users: UserService }> = async (
  app,
  { users },
) => {
  await app.register(multipart, {
    limits: { fileSize: AVATAR_MAX_BYTES + 1, files: 1, fields: 5, parts: 6 },
  });

  app.post(
    '/avatar',
    {
      schema: {
        tags: ['users'],
        security: bearerSecurity,
        summary: 'Upload a picture (multipart/form-data)',
        description: `Part \`${AVATAR_FILE_FIELD}\`: a PNG, JPEG, WebP or GIF image of at most ${AVATAR_MAX_BYTES / 1024 / 1024} MB. Text part \`id\`: whose picture (USUARIOS.UPDATE); left out, one's own.`,
        consumes: ['multipart/form-data'],
        response: { 200: avatarUploadResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const { fields, image } = await readAvatarForm(request);
      const id =
        fields.id === undefined || fields.id === '' ? undefined : idSchema.safeParse(fields.id);
      if (id && !id.success) throw invalidField('id', 'invalid_value');
      if (!image || image.length === 0) throw invalidField(AVATAR_FILE_FIELD, 'required_file');
      const data = await users.setAvatar(actor, id?.data, image, authorOf(request));
      return { message: translateMessage(request.lang, 'avatar_saved'), data };
    },
  );

  app.get(
    '/avatar/:file',
    {
      config: { public: true },
      schema: {
        tags: ['users'],
        summary: 'A picture, by the address `users.avatar` holds (public, cached for good)',
        params: z.object({ file: z.string().max(80) }),
        response: { 200: z.any().describe('The image bytes'), 404: errorResponses[404] },
      },
    },
    async (request, reply) => {
      const picture = await users.avatars.open(request.params.file);
      if (!picture) throw notFound();
      return reply
        .header('content-type', picture.contentType)
        .header('content-length', String(picture.size))
        .header('cache-control', CACHE_CONTROL)
        .send(picture.stream);
    },
  );
};
