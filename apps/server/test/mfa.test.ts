import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLogs,
  mfaChallenges,
  rotaClients,
  sessions,
  userMfa,
  userMfaRecoveryCodes,
} from '../src/db/schema/index.js';
import { FakeClock } from '../src/lib/clock.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { hashToken } from '../src/lib/tokens.js';
import {
  createProfile,
  createProvisionedClient,
  createUser,
  findClient,
} from './helpers/fixtures.js';
import { ADMIN, AUTH, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

/** The TOTP second factor, through HTTP: enrolment, sign-in challenges, codes, reset. */

const MFA = '/api/user/mfa/api/v1';
let t: TestApp;
let clock: FakeClock;
let clientId: number;
let memberProfile: number;
let ipSeq = 0;
/** Every log line the app wrote, to check no secret or code reaches the log. */
const logLines: string[] = [];
/** What must never be logged: secrets, codes and challenges seen during the tests. */
const secrets: string[] = [];

/** Each scenario its own address, so the per-address limits of one never reach another. */
const anon = () => client(t.app, { lang: 'en', ip: `10.0.0.${++ipSeq}` });
const as = (token: string) => client(t.app, { token, lang: 'en' });
const codeAt = (secret: string) =>
  generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
/** The next time step: a code of the step just used would be a replay. */
const nextStep = () => clock.advance(30_000);

async function newMember(access: string, profileId = memberProfile, inClient = clientId) {
  const user = await createUser(t.db, {
    access,
    password: `${access}-password`,
    memberships: [{ clientId: inClient, profileId }],
  });
  return { user, password: `${access}-password`, access };
}

/** Signs in, enrols from the signed-in pages, and answers the secret and recovery codes. */
async function enrolled(access: string) {
  const member = await newMember(access);
  const token = await signIn(t.app, access, member.password);
  const started = await as(token).post(`${MFA}/enrol/start`);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const confirmed = await as(token).post(`${MFA}/enrol/confirm`, {
    code: await codeAt(started.body.secret),
  });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  nextStep();
  secrets.push(started.body.secret, ...confirmed.body.recovery_codes);
  return {
    ...member,
    token,
    secret: started.body.secret as string,
    recoveryCodes: confirmed.body.recovery_codes as string[],
  };
}

async function challengeOf(access: string, password: string, caller = anon()) {
  const res = await caller.post(`${AUTH}/session`, { access, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).not.toHaveProperty('token');
  expect(res.body.mfa_required).toBe(true);
  secrets.push(res.body.challenge);
  return res.body as { challenge: string; enrolment_required: boolean; expires_in: number };
}

async function sessionMethodOf(token: string) {
  const [row] = await t.db
    .select({ method: sessions.method })
    .from(sessions)
    .where(eq(sessions.token_hash, hashToken(token)));
  return row?.method;
}

beforeAll(async () => {
  clock = new FakeClock(new Date());
  t = await createTestApp({
    clock,
    logger: { level: 'trace', stream: { write: (line: string) => void logLines.push(line) } },
  });
  clientId = (await findClient(t.db, 'Default')).rota_clients_id;
  memberProfile = (await createProfile(t.db, clientId, 'MFA members', ['ROBOS.LIST'])).profiles_id;
}, 60_000);
afterAll(() => t.close());

describe('enrolment and sign-in with a code', () => {
  it('enrols, then signs in with password → challenge → code → token (password_totp)', async () => {
    const m = await enrolled('mfa.alice');
    expect(m.recoveryCodes).toHaveLength(10);
    for (const code of m.recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);

    const status = await as(m.token).post(`${MFA}/status`);
    expect(status.body).toMatchObject({ enabled: true, recovery_codes_left: 10, required: false });

    const caller = anon();
    const challenge = await challengeOf(m.access, m.password, caller);
    expect(challenge.enrolment_required).toBe(false);
    expect(challenge.expires_in).toBe(300);
    const done = await caller.post(`${AUTH}/mfa`, {
      challenge: challenge.challenge,
      code: await codeAt(m.secret),
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.token).toEqual(expect.any(String));
    expect(done.body.mfa_enabled).toBe(true);
    expect(done.body.email).toBe('mfa.alice@example.com');
    expect(await sessionMethodOf(done.body.token)).toBe('password_totp');
    expect((await as(done.body.token).post(`${AUTH}/me`)).body.mfa_enabled).toBe(true);
    // The challenge was single use.
    const again = await caller.post(`${AUTH}/mfa`, {
      challenge: challenge.challenge,
      code: await codeAt(m.secret),
    });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('mfa_challenge_expired');
  });

  it('keeps the secret sealed, and out of every answer but enrolment and of the audit', async () => {
    const m = await enrolled('mfa.sealed');
    const [row] = await t.db.select().from(userMfa).where(eq(userMfa.users_id, m.user.users_id));
    expect(row!.secret_sealed).not.toContain(m.secret);
    expect(new SecretBox(t.secretKey).open(row!.secret_sealed)).toBe(m.secret);
    const codes = await t.db
      .select()
      .from(userMfaRecoveryCodes)
      .where(eq(userMfaRecoveryCodes.users_id, m.user.users_id));
    expect(codes).toHaveLength(10);
    const stored = JSON.stringify(codes);
    for (const code of m.recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }
    const answers = JSON.stringify([
      (await as(m.token).post(`${MFA}/status`)).body,
      (await as(m.token).post(`${AUTH}/me`)).body,
    ]);
    expect(answers).not.toContain(m.secret);
    const records = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.entity_id, String(m.user.users_id)));
    expect(records.map((r) => r.action)).toContain('mfa_enable');
    const recorded = JSON.stringify(records);
    expect(recorded).not.toContain(m.secret);
    expect(recorded).not.toContain(row!.secret_sealed);
    for (const code of m.recoveryCodes) expect(recorded).not.toContain(code);
    const challenge = await challengeOf(m.access, m.password);
    const [stored2] = await t.db
      .select()
      .from(mfaChallenges)
      .where(eq(mfaChallenges.challenge_hash, hashToken(challenge.challenge)));
    expect(stored2).toBeDefined();
    expect(JSON.stringify(stored2)).not.toContain(challenge.challenge);
  });

  it('gives a QR code and an otpauth address for Rota and the user’s email', async () => {
    const m = await newMember('mfa.qr');
    const token = await signIn(t.app, m.access, m.password);
    const started = await as(token).post(`${MFA}/enrol/start`);
    expect(started.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Rota:mfa\.qr%40example\.com\?/);
    expect(started.body.otpauth_url).toContain(`secret=${started.body.secret}`);
    expect(started.body.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    // A second start replaces the pending secret; the first one no longer confirms.
    const restarted = await as(token).post(`${MFA}/enrol/start`);
    expect(restarted.body.secret).not.toBe(started.body.secret);
    const stale = await as(token).post(`${MFA}/enrol/confirm`, {
      code: await codeAt(started.body.secret),
    });
    expect(stale.status).toBe(400);
    const ok = await as(token).post(`${MFA}/enrol/confirm`, {
      code: await codeAt(restarted.body.secret),
    });
    expect(ok.status).toBe(200);
    expect((await as(token).post(`${MFA}/enrol/start`)).status).toBe(409);
    nextStep();
  });
});

describe('wrong, replayed and expired', () => {
  it('answers a wrong code 400 with a field error, and refuses a replayed code', async () => {
    const m = await enrolled('mfa.bob');
    const caller = anon();
    const challenge = await challengeOf(m.access, m.password, caller);
    const wrong = await caller.post(`${AUTH}/mfa`, {
      challenge: challenge.challenge,
      code: '000000' === (await codeAt(m.secret)) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('invalid_mfa_code');
    expect(wrong.body.errors).toEqual([
      {
        field: 'code',
        message: 'The code is not valid. Check the time on your phone and try again.',
      },
    ]);
    const code = await codeAt(m.secret);
    const first = await caller.post(`${AUTH}/mfa`, { challenge: challenge.challenge, code });
    expect(first.status).toBe(200);

    // The same code (same time step) on a new challenge: refused.
    const second = await challengeOf(m.access, m.password, caller);
    const replayed = await caller.post(`${AUTH}/mfa`, { challenge: second.challenge, code });
    expect(replayed.status).toBe(400);
    expect(replayed.body.code).toBe('invalid_mfa_code');
    nextStep();
    const fresh = await caller.post(`${AUTH}/mfa`, {
      challenge: second.challenge,
      code: await codeAt(m.secret),
    });
    expect(fresh.status).toBe(200);
    nextStep();
  });

  it('spends a challenge after 5 wrong codes', async () => {
    const m = await enrolled('mfa.carol');
    const caller = anon();
    const challenge = await challengeOf(m.access, m.password, caller);
    const right = await codeAt(m.secret);
    const wrongCode = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) {
      const res = await caller.post(`${AUTH}/mfa`, {
        challenge: challenge.challenge,
        code: wrongCode,
      });
      expect(res.status).toBe(400);
    }
    const late = await caller.post(`${AUTH}/mfa`, { challenge: challenge.challenge, code: right });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('mfa_challenge_expired');
  });

  it('answers an expired or unknown challenge 401', async () => {
    const m = await enrolled('mfa.dave');
    const caller = anon();
    const challenge = await challengeOf(m.access, m.password, caller);
    clock.advance(301_000);
    const late = await caller.post(`${AUTH}/mfa`, {
      challenge: challenge.challenge,
      code: await codeAt(m.secret),
    });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('mfa_challenge_expired');
    const unknown = await caller.post(`${AUTH}/mfa`, {
      challenge: 'not-a-challenge',
      code: await codeAt(m.secret),
    });
    expect(unknown.status).toBe(401);
    nextStep();
  });

  it('gives one session to two concurrent completions of one challenge', async () => {
    const m = await enrolled('mfa.twice');
    const caller = anon();
    const challenge = await challengeOf(m.access, m.password, caller);
    const code = await codeAt(m.secret);
    const results = await Promise.all([
      caller.post(`${AUTH}/mfa`, { challenge: challenge.challenge, code }),
      caller.post(`${AUTH}/mfa`, { challenge: challenge.challenge, code }),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    nextStep();
  });

  it('limits wrong codes per address (429 past 30 a window)', async () => {
    const m = await enrolled('mfa.guesser');
    const caller = anon();
    const wrongCode = async () => ((await codeAt(m.secret)) === '000000' ? '111111' : '000000');
    const statuses: number[] = [];
    for (let round = 0; round < 7; round++) {
      const challenge = await challengeOf(m.access, m.password, caller);
      for (let i = 0; i < 5; i++) {
        const res = await caller.post(`${AUTH}/mfa`, {
          challenge: challenge.challenge,
          code: await wrongCode(),
        });
        statuses.push(res.status);
      }
    }
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429, 429, 429, 429]);
    // Another address is not barred.
    const other = anon();
    const challenge = await challengeOf(m.access, m.password, other);
    const ok = await other.post(`${AUTH}/mfa`, {
      challenge: challenge.challenge,
      code: await codeAt(m.secret),
    });
    expect(ok.status).toBe(200);
    nextStep();
  });

  it('still applies the password step’s throttle', async () => {
    const m = await enrolled('mfa.throttled');
    const caller = anon();
    for (let i = 0; i < 5; i++) {
      const res = await caller.post(`${AUTH}/session`, { access: m.access, password: 'wrong!' });
      expect(res.status).toBe(401);
    }
    const barred = await caller.post(`${AUTH}/session`, { access: m.access, password: m.password });
    expect(barred.status).toBe(429);
  });
});

describe('recovery codes', () => {
  it('signs in with a recovery code once (recovery_code), dashes and case tolerated', async () => {
    const m = await enrolled('mfa.erin');
    const caller = anon();
    const code = m.recoveryCodes[0]!;
    const challenge = await challengeOf(m.access, m.password, caller);
    const done = await caller.post(`${AUTH}/mfa`, {
      challenge: challenge.challenge,
      code: ` ${code.toUpperCase()} `,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await sessionMethodOf(done.body.token)).toBe('recovery_code');
    expect((await as(done.body.token).post(`${MFA}/status`)).body.recovery_codes_left).toBe(9);

    const second = await challengeOf(m.access, m.password, caller);
    const reused = await caller.post(`${AUTH}/mfa`, { challenge: second.challenge, code });
    expect(reused.status).toBe(400);
    const other = await caller.post(`${AUTH}/mfa`, {
      challenge: second.challenge,
      code: m.recoveryCodes[1]!.replace('-', ''),
    });
    expect(other.status).toBe(200);
  });

  it('gives one success to two concurrent uses of a recovery code', async () => {
    const m = await enrolled('mfa.race');
    const [a, b] = [anon(), anon()];
    const [ca, cb] = [
      await challengeOf(m.access, m.password, a),
      await challengeOf(m.access, m.password, b),
    ];
    const code = m.recoveryCodes[0]!;
    const results = await Promise.all([
      a.post(`${AUTH}/mfa`, { challenge: ca.challenge, code }),
      b.post(`${AUTH}/mfa`, { challenge: cb.challenge, code }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it('regenerating needs a code and voids the old codes', async () => {
    const m = await enrolled('mfa.frank');
    const me = as(m.token);
    expect((await me.post(`${MFA}/recovery-codes`, { code: '000000' })).status).toBe(400);
    const fresh = await me.post(`${MFA}/recovery-codes`, { code: await codeAt(m.secret) });
    expect(fresh.status).toBe(200);
    expect(fresh.body.recovery_codes).toHaveLength(10);
    nextStep();
    const caller = anon();
    const challenge = await challengeOf(m.access, m.password, caller);
    const old = await caller.post(`${AUTH}/mfa`, {
      challenge: challenge.challenge,
      code: m.recoveryCodes[2],
    });
    expect(old.status).toBe(400);
    const ok = await caller.post(`${AUTH}/mfa`, {
      challenge: challenge.challenge,
      code: fresh.body.recovery_codes[0],
    });
    expect(ok.status).toBe(200);
    const records = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.entity_id, String(m.user.users_id)));
    expect(records.map((r) => r.action)).toContain('mfa_recovery_codes');
  });
});

describe('turning it off', () => {
  it('disable needs a current code; then the password alone signs in', async () => {
    const m = await enrolled('mfa.gina');
    const me = as(m.token);
    expect((await me.post(`${MFA}/disable`, {})).status).toBe(400);
    const wrong = await me.post(`${MFA}/disable`, { code: '000000' });
    expect(wrong.status).toBe(400);
    const off = await me.post(`${MFA}/disable`, { code: await codeAt(m.secret) });
    expect(off.status).toBe(200);
    expect(off.body.message).toBe('Second factor turned off');
    expect((await me.post(`${MFA}/status`)).body).toMatchObject({ enabled: false });
    const res = await anon().post(`${AUTH}/session`, { access: m.access, password: m.password });
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.body.mfa_enabled).toBe(false);
    const records = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.entity_id, String(m.user.users_id)));
    expect(records.map((r) => r.action)).toContain('mfa_disable');
    expect((await me.post(`${MFA}/disable`, { code: '123456' })).status).toBe(409);
  });
});

describe('a client that requires a second factor', () => {
  it('makes its member enrol at sign-in, gives a token and recovery codes; they cannot disable', async () => {
    const { client: required, adminProfile } = await createProvisionedClient(t.db, 'Strict Co');
    await t.db
      .update(rotaClients)
      .set({ require_mfa: true })
      .where(eq(rotaClients.rota_clients_id, required.rota_clients_id));
    const m = await newMember('mfa.strict', adminProfile.profiles_id, required.rota_clients_id);
    const caller = anon();
    const challenge = await challengeOf(m.access, m.password, caller);
    expect(challenge.enrolment_required).toBe(true);

    // No token by the password alone, nor by the code step without a factor.
    const skip = await caller.post(`${AUTH}/mfa`, {
      challenge: challenge.challenge,
      code: '123456',
    });
    expect(skip.status).toBe(400);

    const started = await caller.post(`${AUTH}/mfa/enrol/start`, {
      challenge: challenge.challenge,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.otpauth_url).toContain('mfa.strict%40example.com');
    const wrong = await caller.post(`${AUTH}/mfa/enrol/confirm`, {
      challenge: challenge.challenge,
      code: (await codeAt(started.body.secret)) === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].field).toBe('code');
    const done = await caller.post(`${AUTH}/mfa/enrol/confirm`, {
      challenge: challenge.challenge,
      code: await codeAt(started.body.secret),
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.token).toEqual(expect.any(String));
    expect(done.body.recovery_codes).toHaveLength(10);
    expect(done.body.mfa_enabled).toBe(true);
    expect(await sessionMethodOf(done.body.token)).toBe('password_totp');
    nextStep();

    const me = as(done.body.token);
    expect((await me.post(`${MFA}/status`)).body).toMatchObject({ enabled: true, required: true });
    const refused = await me.post(`${MFA}/disable`, { code: await codeAt(started.body.secret) });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('mfa_setup_required');

    // From now on the usual challenge, not an enrolment.
    const next = await challengeOf(m.access, m.password, caller);
    expect(next.enrolment_required).toBe(false);
    expect(
      (await caller.post(`${AUTH}/mfa/enrol/start`, { challenge: next.challenge })).status,
    ).toBe(409);
  });
});

describe('administrator reset', () => {
  it('needs USUARIOS.UPDATE, answers another client’s user 404, audits and ends sessions', async () => {
    const m = await enrolled('mfa.henry');
    const admin = as(await signIn(t.app, ADMIN.access, ADMIN.password));

    const viewer = await newMember('mfa.viewer');
    const viewerToken = await signIn(t.app, viewer.access, viewer.password);
    const refused = await as(viewerToken).post(`${MFA}/reset`, { users_id: m.user.users_id });
    expect(refused.status).toBe(403);

    const { client: other, adminProfile } = await createProvisionedClient(t.db, 'Other Co');
    const stranger = await newMember(
      'mfa.stranger',
      adminProfile.profiles_id,
      other.rota_clients_id,
    );
    const foreign = await admin.post(`${MFA}/reset`, { users_id: stranger.user.users_id });
    expect(foreign.status).toBe(404);

    const reset = await admin.post(`${MFA}/reset`, { users_id: m.user.users_id });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body.message).toBe(
      'Second factor reset: the user sets it up again at the next sign-in',
    );
    expect((await as(m.token).post(`${AUTH}/me`)).status).toBe(401);
    const [record] = await t.db.select().from(auditLogs).where(eq(auditLogs.action, 'mfa_reset'));
    expect(record).toMatchObject({
      entity: 'user',
      entity_id: String(m.user.users_id),
      rota_clients_id: clientId,
    });
    const res = await anon().post(`${AUTH}/session`, { access: m.access, password: m.password });
    expect(res.body.token).toEqual(expect.any(String));
  });
});

describe('API keys', () => {
  it('a key of a user with a factor still works, but cannot manage the factor (403)', async () => {
    const m = await enrolled('mfa.keys');
    // A key is made from a session: a fresh one through the challenge.
    const caller = anon();
    const challenge = await challengeOf(m.access, m.password, caller);
    const done = await caller.post(`${AUTH}/mfa`, {
      challenge: challenge.challenge,
      code: await codeAt(m.secret),
    });
    nextStep();
    const made = await as(done.body.token).post('/api/user/apikey/api/v1/create', { name: 'CI' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const key = as(made.body.data.key);
    expect((await key.post('/api/rota/robot/api/v1/index', {})).status).toBe(200);
    expect((await key.post(`${MFA}/status`)).status).toBe(403);
    expect((await key.post(`${MFA}/disable`, { code: '123456' })).status).toBe(403);
  });
});

describe('the log', () => {
  it('holds no secret, recovery code or challenge of these tests', () => {
    expect(logLines.length).toBeGreaterThan(100);
    expect(secrets.length).toBeGreaterThan(50);
    const log = logLines.join('');
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
