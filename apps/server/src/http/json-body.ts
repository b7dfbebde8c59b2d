import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.js';

/**
 * Deepest nesting of arrays and objects a JSON text from outside may have. The walks that follow
 * a parse (the NUL check on every body, zod's own) go a level at a time: a body nested thousands
 * deep used to overflow the stack after blocking the event loop for most of a second. No payload
 * of the contract, free task data included, comes near this.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * How deep a JSON text nests, found without parsing it and fed a piece at a time: brackets
 * inside strings (escaped quotes honoured) do not count. Raw UTF-8 bytes and decoded text read
 * alike, since every byte of a multi-byte character is above ASCII. Text that is not JSON at all
 * is left for the parser to refuse.
 */
export class JsonDepthScan {
  private depth = 0;
  private inString = false;
  /** The piece before ended on a backslash inside a string. */
  private escaped = false;

  constructor(private readonly max = MAX_JSON_DEPTH) {}

  /** Reads the next piece; true once the text so far nests deeper than `max`. */
  feed(piece: string | Uint8Array): boolean {
    const text = typeof piece === 'string';
    let i = 0;
    if (this.escaped) {
      this.escaped = false;
      i = 1;
    }
    for (; i < piece.length; i++) {
      const c = text ? piece.charCodeAt(i) : piece[i];
      if (this.inString) {
        if (c === BACKSLASH) {
          if (i + 1 === piece.length) this.escaped = true;
          i++;
        } else if (c === QUOTE) {
          this.inString = false;
        }
      } else if (c === QUOTE) {
        this.inString = true;
      } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
        if (++this.depth > this.max) return true;
      } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
        this.depth--;
      }
    }
    return false;
  }
}

/** Whether a whole JSON text nests arrays and objects deeper than `max`. */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  return new JsonDepthScan(max).feed(text);
}

/** The answer to a body nested too deep, shaped as the API's other 400s: the body is the field. */
export const jsonTooDeep = () =>
  new AppError('json_too_deep', [{ field: '', message: 'json_too_deep' }]);

/** Passes a body through while it nests no deeper than the limit; fails the moment it does. */
class DepthGuard extends Transform {
  private readonly scan = new JsonDepthScan();

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (this.scan.feed(chunk)) callback(jsonTooDeep());
    else callback(null, chunk);
  }
}

const JSON_MEDIA_TYPE = /^\s*application\/json\s*(;|$)/i;
/** Methods whose body Fastify never reads. */
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);
const ignore = () => {};

/**
 * Every application/json body of every route goes through here, in two places. While it streams
 * in, a guard refuses it the moment it nests too deep: the answer goes out at once, before the
 * rest of a megabyte arrives. The parser then checks the whole text again before parsing it,
 * which holds however the content type was spelled; Fastify's own parser (with its
 * prototype-poisoning checks) does the parse.
 */
export function registerJsonBodyParser(app: FastifyInstance) {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const type = request.headers['content-type'];
    if (BODYLESS.has(request.method) || type === undefined || !JSON_MEDIA_TYPE.test(type)) {
      return done(null, payload);
    }
    const guard = new DepthGuard();
    // Its failure reaches the body's reader; a body nobody reads (a route that does not exist)
    // fails quietly instead of as an uncaught error, and Node drains it after the answer.
    guard.on('error', ignore);
    // A client that goes away mid-body fails the body as it did before the guard.
    payload.once('error', (error) => guard.destroy(error));
    done(null, payload.pipe(guard));
  });
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // parseAs 'string': the body is always text here.
    const text = body as string;
    if (nestsDeeperThan(text)) {
      done(jsonTooDeep(), undefined);
      return;
    }
    parse(request, text, done);
  });
}
