import { randomBytes } from 'node:crypto';

export interface FilePart {
  name: string;
  data: Buffer;
  /** Content-Type of the part; a browser sends application/octet-stream when it cannot tell. */
  type?: string;
  /** The part's name; `file` unless the endpoint wants another (the avatar upload: `avatar`). */
  field?: string;
}

/** A multipart/form-data body as a browser's FormData sends it: text parts, then the file. */
export function multipart(fields: Record<string, string | number>, file?: FilePart) {
  const boundary = `----rota${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
