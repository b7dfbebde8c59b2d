import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '@rota/contract';
import { signInDevices } from '../src/db/schema/index.js';
import { FakeClock } from '../src/lib/clock.js';
import { createProfile, createUser, findClient } from './helpers/fixtures.js';
import { AUTH, createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Device cookies: a browser that completed a sign-in is let past the throttles that other
 * addresses' failures raise, for the password and for the second factor; guesses stay throttled.
 */

const MFA = '/api/user/mfa/api/v1';
let t: TestApp;
let clock: FakeClock;
let profileId: number;
let clientId: number;
let ipSeq = 0;
const nextIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

interface Call {
  ip: string;
  device?: string;
  token?: string;
  proto?: string;
}

async function post(url: string, body: unknown, call: Call) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    remoteAddress: call.ip,
    headers: {
      'accept-language': 'en',
      ...(call.device ? { cookie: `rota.device=${call.device}` } : {}),
      ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
      ...(call.proto ? { 'x-forwarded-proto': call.proto } : {}),
    },
    payload: body as object,
  });
  const setCookie = res.headers['set-cookie'];
  return {
    status: res.statusCode,
    body: res.body ? JSON.parse(res.body) : undefined,
    setCookie: Array.isArray(setCookie) ? setCookie[0] : setCookie,
  };
}

const deviceOf = (setCookie: string | undefined) =>
  /^rota\.device=([^;]+)/.exec(setCookie ?? '')?.[1];

const signInAt = (call: Call, access: string, password: string) =>
  post(`${AUTH}/session`, { access, password }, call);

let users = 0;
async function member() {
  const access = `device.owner.${++users}`;
  const password = `${access}-password`;
  await createUser(t.db, { access, password, memberships: [{ clientId, profileId }] });
  return { access, password };
}

beforeAll(async () => {
  clock = new FakeClock(new Date());
  t = await createTestApp({ engine: { loop: false }, clock, trustProxy: true });
  clientId = (await findClient(t.db, 'Default')).rota_clients_id;
  profileId = (await createProfile(t.db, clientId, 'Device readers', ['ROBOS.LIST'])).profiles_id;
}, 60_000);
afterAll(() => t.close());

describe('the device cookie', () => {
  it('is HttpOnly, SameSite=Strict, 90 days, for the sign-in routes; its token stored hashed', async () => {
    const { access, password } = await member();
    const res = await signInAt({ ip: nextIp() }, access, password);
    expect(res.status).toBe(200);
    const cookie = res.setCookie!;
    expect(cookie).toMatch(/^rota\.device=[\w-]{43}; /);
    expect(cookie).toContain('Max-Age=7776000');
    expect(cookie).toContain('Path=/api/user/api/auth/v1');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).not.toContain('Secure');
    const token = deviceOf(cookie)!;
    const [row] = await t.db
      .select()
      .from(signInDevices)
      .where(eq(signInDevices.token_hash, createHash('sha256').update(token).digest('hex')));
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(token);

    // Over https it is Secure; a known device keeps its token.
    const again = await signInAt({ ip: nextIp(), device: token, proto: 'https' }, access, password);
    expect(again.status).toBe(200);
    expect(again.setCookie).toContain('Secure');
    expect(deviceOf(again.setCookie)).toBe(token);
  });

  it('is not set by a wrong password', async () => {
    const { access } = await member();
    const res = await signInAt({ ip: nextIp() }, access, 'wrong-password');
    expect(res.status).toBe(401);
    expect(res.setCookie).toBeUndefined();
  });
});

describe('a guesser does not lock the owner out', () => {
  it('lets the owner’s known device sign in at once after failures from other addresses', async () => {
    const { access, password } = await member();
    const home = nextIp();
    const device = deviceOf((await signInAt({ ip: home }, access, password)).setCookie)!;

    // Many addresses guess; the owner's own address too (a shared NAT), without the cookie.
    const guesses: number[] = [];
    for (let i = 0; i < RATE_LIMITS.signInFailuresPerAccountBeforeSlowLane + 2; i++)
      guesses.push((await signInAt({ ip: nextIp() }, access, `wrong-${i}`)).status);
    // Past the account's budget, new addresses share the slow lane.
    expect(guesses).toContain(429);
    for (let i = 0; i < RATE_LIMITS.signInFreeFailuresPerPair; i++)
      await signInAt({ ip: home }, access, `wrong-home-${i}`);

    // Without the cookie the right password waits there, and at a new address too...
    expect((await signInAt({ ip: home }, access, password)).status).toBe(429);
    const stranger = nextIp();
    await signInAt({ ip: stranger }, access, 'wrong-once-more');
    expect((await signInAt({ ip: stranger }, access, password)).status).toBe(429);
    // ... while the known device signs in at once, from home or anywhere.
    expect((await signInAt({ ip: home, device }, access, password)).status).toBe(200);
    expect((await signInAt({ ip: nextIp(), device }, access, password)).status).toBe(200);
  });

  it('still throttles wrong passwords sent with a known device', async () => {
    const { access, password } = await member();
    const device = deviceOf((await signInAt({ ip: nextIp() }, access, password)).setCookie)!;
    const ip = nextIp();
    for (let i = 0; i < RATE_LIMITS.signInFreeFailuresPerPair; i++)
      expect((await signInAt({ ip, device }, access, `wrong-${i}`)).status).toBe(401);
    expect((await signInAt({ ip, device }, access, 'wrong-again')).status).toBe(429);
  });

  it('forgets a device unused for 90 days, and one of another user counts as none', async () => {
    const { access, password } = await member();
    const other = await member();
    const device = deviceOf((await signInAt({ ip: nextIp() }, access, password)).setCookie)!;
    const ip = nextIp();
    for (let i = 0; i < RATE_LIMITS.signInFreeFailuresPerPair; i++)
      await signInAt({ ip }, other.access, `wrong-${i}`);
    // Another user's device does not open the other account's budget.
    expect((await signInAt({ ip, device }, other.access, other.password)).status).toBe(429);

    for (let i = 0; i < RATE_LIMITS.signInFreeFailuresPerPair; i++)
      await signInAt({ ip }, access, `wrong-${i}`);
    clock.advance(91 * 24 * 60 * 60 * 1000);
    expect((await signInAt({ ip, device }, access, password)).status).toBe(429);
  });
});

describe('the second factor', () => {
  async function enrolled() {
    const { access, password } = await member();
    const first = await signInAt({ ip: nextIp() }, access, password);
    const device = deviceOf(first.setCookie)!;
    const started = await post(`${MFA}/enrol/start`, {}, { ip: nextIp(), token: first.body.token });
    const secret = started.body.secret as string;
    const confirmed = await post(
      `${MFA}/enrol/confirm`,
      { code: await codeAt(secret) },
      { ip: nextIp(), token: first.body.token },
    );
    expect(confirmed.status).toBe(200);
    clock.advance(30_000);
    return { access, password, secret, device };
  }
  const codeAt = (secret: string) =>
    generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });

  it('accepts the right code from the known device after 30 wrong ones; wrong ones still 429', async () => {
    const m = await enrolled();
    const attacker = nextIp();
    const wrong = async () => ((await codeAt(m.secret)) === '000000' ? '111111' : '000000');
    let challenge = '';
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMITS.mfaFailuresPerIp + 2; i++) {
      if (i % 5 === 0)
        challenge = (await signInAt({ ip: attacker }, m.access, m.password)).body.challenge;
      statuses.push(
        (await post(`${AUTH}/mfa`, { challenge, code: await wrong() }, { ip: attacker })).status,
      );
    }
    expect(statuses.slice(0, RATE_LIMITS.mfaFailuresPerIp).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(RATE_LIMITS.mfaFailuresPerIp)).toEqual([429, 429]);

    // The owner, on the browser that signed in before, from the same address even.
    const owner = { ip: attacker, device: m.device };
    const own = await signInAt(owner, m.access, m.password);
    expect(own.body.mfa_required).toBe(true);
    const ok = await post(
      `${AUTH}/mfa`,
      { challenge: own.body.challenge, code: await codeAt(m.secret) },
      owner,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.token).toEqual(expect.any(String));
    expect(deviceOf(ok.setCookie)).toBe(m.device);

    // The guesser is still held: a fresh challenge, and its code, are refused 429.
    clock.advance(30_000);
    const theirs = await signInAt({ ip: attacker }, m.access, m.password);
    const refused = await post(
      `${AUTH}/mfa`,
      { challenge: theirs.body.challenge, code: await codeAt(m.secret) },
      { ip: attacker },
    );
    expect(refused.status).toBe(429);
  });

  it('makes the browser a known device once the code is right', async () => {
    const m = await enrolled();
    const ip = nextIp();
    const challenge = (await signInAt({ ip }, m.access, m.password)).body.challenge;
    const ok = await post(`${AUTH}/mfa`, { challenge, code: await codeAt(m.secret) }, { ip });
    expect(ok.status).toBe(200);
    const device = deviceOf(ok.setCookie);
    expect(device).toMatch(/^[\w-]{43}$/);
    expect(device).not.toBe(m.device);
  });
});
