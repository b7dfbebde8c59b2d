/**
 * A JSON POST with a bearer token on kept-alive sockets, answering the body's `data`; rejects on
 * any status from 300 up with the answer's start. Plain node:http: fetch costs several times the
 * CPU a request, and the load processes stand in for agents and robots on machines of their own.
 */
import http from 'node:http';

export function keepAlivePost(
  agent: http.Agent,
  url: string,
  token: string,
  body: object,
): Promise<unknown> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 500;
          if (status >= 300) reject(new Error(`${url} answered ${status}: ${text.slice(0, 300)}`));
          else resolve((JSON.parse(text || '{}') as { data?: unknown }).data);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
