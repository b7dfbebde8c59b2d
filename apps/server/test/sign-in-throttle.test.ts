import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '@rota/contract';
import { passwordResetCodes, recoveryOutbox, users } from '../src/db/schema/index.js';
import { rowsOf } from '../src/lib/sql-rows.js';
import { createProfile, createUser, findClient } from './helpers/fixtures.js';
import { codeFromMail } from './helpers/mailbox.js';
import { AUTH, client, createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Sign-in cannot be used against its users. The attacks found are replayed here; the
 * throttles use the database's clock, so a test moves a bar into the past instead of waiting.
 */
let t: TestApp;
const PASSWORD = 'owner-password-1';

beforeAll(async () => {
  t = await createTestApp();
  const def = await findClient(t.db, 'Default');
  const readers = await createProfile(t.db, def.rota_clients_id, 'Readers', ['ROBOS.LIST']);
  for (const access of ['owner', 'racer', 'target', 'keeper', 'resetter', 'spec']) {
    await createUser(t.db, {
      access,
      password: PASSWORD,
      name: access,
      memberships: [{ clientId: def.rota_clients_id, profileId: readers.profiles_id }],
    });
  }
});
afterAll(() => t.close());

const signInFrom = (ip: string, access: string, password: string) =>
  client(t.app, { ip }).post(`${AUTH}/session`, { access, password });

/** Lifts every bar on the keys matching `pattern`, as if their wait had passed. */
const liftBars = (pattern: string) =>
  t.db.execute(
    sql`update sign_in_throttles set blocked_until = now() - interval '1 second' where key like ${pattern}`,
  );

const FREE = RATE_LIMITS.signInFreeFailuresPerPair;

describe('sign-in throttles', () => {
  it('slows the guessing address and never locks the owner out (the lock-out attack)', async () => {
    // Address A guesses: a few free failures, then a wait; even the right password waits.
    for (let i = 0; i < FREE; i++) {
      expect((await signInFrom('10.1.0.1', 'owner', `wrong-${i}`)).status).toBe(401);
    }
    const barred = await signInFrom('10.1.0.1', 'owner', 'wrong-again');
    expect(barred.status).toBe(429);
    expect(barred.body.code).toBe('too_many_requests');
    expect(Number(barred.headers['retry-after'])).toBe(RATE_LIMITS.signInFirstWaitSeconds);
    expect((await signInFrom('10.1.0.1', 'owner', PASSWORD)).status).toBe(429);
    // More guesses than the old account lock allowed (10) from A, as the wait passes each time.
    for (let i = 0; i < 6; i++) {
      await liftBars('pair:%:10.1.0.1');
      expect((await signInFrom('10.1.0.1', 'owner', `later-${i}`)).status).toBe(401);
    }

    // The owner, from another address, with the right password: the account has now failed more
    // than 10 times, so a new address takes the slow lane (the last guess holds it for a few
    // seconds): delayed, never locked out.
    const delayed = await signInFrom('10.1.0.2', 'owner', PASSWORD);
    expect(delayed.status).toBe(429);
    expect(Number(delayed.headers['retry-after'])).toBeLessThanOrEqual(
      RATE_LIMITS.signInSlowLaneSeconds,
    );
    await liftBars('slow-lane:%');
    const owner = await signInFrom('10.1.0.2', 'owner', PASSWORD);
    expect(owner.status).toBe(200);
    expect(owner.body.token).toEqual(expect.any(String));
    // B is a known address now: through the email too, at once, though the lane is held again.
    expect((await signInFrom('10.1.0.2', 'owner@example.com', PASSWORD)).status).toBe(200);

    // The guesser at A is still barred, and its wait has doubled with every failure past the
    // free ones (30 s · 2^6 after 11 failures), up to its cap.
    const still = await signInFrom('10.1.0.1', 'owner', 'wrong-more');
    expect(still.status).toBe(429);
    const wait = Number(still.headers['retry-after']);
    expect(wait).toBeGreaterThan(RATE_LIMITS.signInFirstWaitSeconds * 2 ** 4);
    expect(wait).toBeLessThanOrEqual(RATE_LIMITS.signInMaxWaitSeconds);
  });

  it('forgets a pair once its owner signs in from it', async () => {
    for (let i = 0; i < FREE - 1; i++) {
      expect((await signInFrom('10.1.1.1', 'keeper', `typo-${i}`)).status).toBe(401);
    }
    expect((await signInFrom('10.1.1.1', 'keeper', PASSWORD)).status).toBe(200);
    // A fresh budget: the same number of typos again without a wait.
    for (let i = 0; i < FREE; i++) {
      expect((await signInFrom('10.1.1.1', 'keeper', `typo-again-${i}`)).status).toBe(401);
    }
    expect((await signInFrom('10.1.1.1', 'keeper', 'one-more')).status).toBe(429);
  });

  it('checks at most the free failures of 40 concurrent wrong sign-ins (atomic counting)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signInFrom('10.2.0.1', 'racer', `wrong-${i}`)),
    );
    const statuses = answers.map((a) => a.status);
    // 401 = a password was checked; 429 = refused before checking.
    expect(statuses.filter((s) => s === 401)).toHaveLength(FREE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - FREE);
    // The refused ones were not counted: the pair holds exactly the failures checked.
    const rows = await rowsOf<{ failures: number }>(
      t.db,
      sql`select failures from sign_in_throttles where key like 'pair:%:10.2.0.1'`,
    );
    expect(rows).toEqual([{ failures: FREE }]);
  });

  it('lets addresses new to an account under attack check one password every few seconds', async () => {
    // The owner signed in from K before: K is a known address.
    expect((await signInFrom('10.3.0.100', 'target', PASSWORD)).status).toBe(200);
    // A spread-out attack: one guess from each of many addresses.
    const limit = RATE_LIMITS.signInFailuresPerAccountBeforeSlowLane;
    for (let i = 0; i < limit; i++) {
      expect((await signInFrom(`10.3.0.${i + 1}`, 'target', `guess-${i}`)).status).toBe(401);
    }
    // Past the limit, unknown addresses share one slow lane: this guess takes it ...
    expect((await signInFrom('10.3.0.50', 'target', 'guess-lane')).status).toBe(401);
    // ... so the owner on a new address waits a few seconds (not 15 minutes) ...
    const delayed = await signInFrom('10.3.0.60', 'target', PASSWORD);
    expect(delayed.status).toBe(429);
    expect(Number(delayed.headers['retry-after'])).toBeLessThanOrEqual(
      RATE_LIMITS.signInSlowLaneSeconds,
    );
    // ... and from the known address signs in at once.
    expect((await signInFrom('10.3.0.100', 'target', PASSWORD)).status).toBe(200);
    // The lane opens again: the owner on the new address gets in.
    await liftBars('slow-lane:%');
    expect((await signInFrom('10.3.0.60', 'target', PASSWORD)).status).toBe(200);

    // Concurrent guesses from 20 new addresses: the lane lets exactly one password be checked.
    await liftBars('slow-lane:%');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signInFrom(`10.3.1.${i + 1}`, 'target', `g-${i}`)),
    );
    expect(answers.filter((a) => a.status === 401)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(19);
  });

  it('treats an unknown identifier like an account (the answers tell nothing)', async () => {
    for (let i = 0; i < FREE; i++) {
      expect((await signInFrom('10.4.0.1', 'nobody-here', `x-${i}`)).status).toBe(401);
    }
    const barred = await signInFrom('10.4.0.1', 'nobody-here', 'x');
    expect(barred.status).toBe(429);
    expect(Number(barred.headers['retry-after'])).toBe(RATE_LIMITS.signInFirstWaitSeconds);
  });
});

describe('password recovery off the request path', () => {
  it('does the same work for a known and an unknown email; the mail goes out afterwards', async () => {
    const outbox = t.app.services.auth.recoveryOutbox;
    await outbox.pause();
    try {
      const [resetter] = await t.db.select().from(users).where(eq(users.access, 'resetter'));
      const codesBefore = await t.db
        .select()
        .from(passwordResetCodes)
        .where(eq(passwordResetCodes.users_id, resetter!.users_id));
      const known = await client(t.app, { ip: '10.5.0.1', lang: 'en' }).post(
        `${AUTH}/recover-password`,
        { email: 'resetter@example.com' },
      );
      const unknown = await client(t.app, { ip: '10.5.0.2', lang: 'en' }).post(
        `${AUTH}/recover-password`,
        { email: 'no-such-user@example.com' },
      );
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual(known.body);

      // What the request did is one identical outbox row for either email; the account was not
      // even looked at (no code issued yet, no mail).
      const rows = await t.db
        .select({
          email: recoveryOutbox.email,
          lang: recoveryOutbox.lang,
          attempts: recoveryOutbox.attempts,
        })
        .from(recoveryOutbox)
        .orderBy(recoveryOutbox.recovery_outbox_id);
      expect(rows).toEqual([
        { email: 'resetter@example.com', lang: 'en', attempts: 0 },
        { email: 'no-such-user@example.com', lang: 'en', attempts: 0 },
      ]);
      expect(
        await t.db
          .select()
          .from(passwordResetCodes)
          .where(eq(passwordResetCodes.users_id, resetter!.users_id)),
      ).toEqual(codesBefore);
      expect(t.mailbox.mails.some((m) => m.to === 'resetter@example.com')).toBe(false);
    } finally {
      outbox.resume();
    }
    await outbox.idle();
    const mail = await t.mailbox.waitFor('resetter@example.com');
    expect(codeFromMail(mail)).toEqual(expect.any(String));
    expect(t.mailbox.mails.some((m) => m.to === 'no-such-user@example.com')).toBe(false);
    expect(await t.db.select().from(recoveryOutbox)).toEqual([]);
  });

  it('sends what an instance left in the outbox (a crash after the answer loses no mail)', async () => {
    await t.db.insert(recoveryOutbox).values({ email: 'keeper@example.com', lang: 'pt' });
    t.app.services.auth.recoveryOutbox.kick();
    const mail = await t.mailbox.waitFor('keeper@example.com');
    expect(mail.subject).toBe('Rota: defina uma nova senha');
    await t.app.services.auth.recoveryOutbox.idle();
    expect(await t.db.select().from(recoveryOutbox)).toEqual([]);
  });
});

describe('recovery outbox retries and throttle housekeeping', () => {
  it('keeps a request whose mail failed and sends it once its lease passes', async () => {
    const outbox = t.app.services.auth.recoveryOutbox;
    await outbox.idle();
    t.mailbox.mails.length = 0;
    const send = t.mailbox.send.bind(t.mailbox);
    // The SMTP server refuses once.
    t.mailbox.send = () => {
      t.mailbox.send = send;
      return Promise.reject(new Error('421 try again later'));
    };
    await client(t.app, { ip: '10.8.0.1' }).post(`${AUTH}/recover-password`, {
      email: 'keeper@example.com',
    });
    await outbox.idle();
    expect(t.mailbox.mails).toEqual([]);
    const [left] = await rowsOf<{ attempts: number; leased: boolean }>(
      t.db,
      sql`select attempts, next_attempt_at > now() as leased from recovery_outbox`,
    );
    expect(left).toEqual({ attempts: 1, leased: true });

    await t.db.execute(sql`update recovery_outbox set next_attempt_at = now()`);
    outbox.kick();
    await outbox.idle();
    expect(codeFromMail(await t.mailbox.waitFor('keeper@example.com'))).toEqual(expect.any(String));
    expect(await t.db.select().from(recoveryOutbox)).toEqual([]);
  });

  it('prunes throttle rows that are neither barring nor remembered', async () => {
    await t.db.execute(
      sql`insert into sign_in_throttles (key, failures, last_failure_at, blocked_until) values
        ('pair:old:1', 3, now() - interval '2 days', null),
        ('pair:old-barred:1', 9, now() - interval '2 days', now() + interval '1 minute'),
        ('pair:recent:1', 1, now(), null)`,
    );
    await t.app.services.auth.prune();
    const keys = await rowsOf<{ key: string }>(
      t.db,
      sql`select key from sign_in_throttles where key in ('pair:old:1', 'pair:old-barred:1', 'pair:recent:1') order by key`,
    );
    expect(keys.map((k) => k.key)).toEqual(['pair:old-barred:1', 'pair:recent:1']);
  });
});

describe('recovery code attempts', () => {
  it('refuses an address after 10 wrong codes, even its right code, and counts concurrent guesses atomically', async () => {
    await t.app.services.auth.recoveryOutbox.idle();
    t.mailbox.mails.length = 0;
    await client(t.app, { ip: '10.6.0.9' }).post(`${AUTH}/recover-password`, {
      email: 'resetter@example.com',
    });
    const code = codeFromMail(await t.mailbox.waitFor('resetter@example.com'));

    const guesser = client(t.app, { ip: '10.6.0.1' });
    const limit = RATE_LIMITS.resetCodeFailuresPerIp;
    for (let i = 0; i < limit / 2; i++) {
      const res = await guesser.post(`${AUTH}/check-code`, { code: `guess-${i}` });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('code_invalid');
    }
    // reset-password shares the budget.
    for (let i = 0; i < limit / 2; i++) {
      const res = await guesser.post(`${AUTH}/reset-password`, {
        code: `guess-r-${i}`,
        password: 'new-password-9',
      });
      expect(res.status).toBe(400);
    }
    const refused = await guesser.post(`${AUTH}/check-code`, { code });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(RATE_LIMITS.windowSeconds));
    expect(
      (await guesser.post(`${AUTH}/reset-password`, { code, password: 'new-password-9' })).status,
    ).toBe(429);

    // Twenty concurrent guesses from a fresh address: exactly the limit is looked at.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client(t.app, { ip: '10.6.0.2' }).post(`${AUTH}/check-code`, { code: `c-${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 400)).toHaveLength(limit);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(20 - limit);

    // The owner's address is not spent by right codes: check, then reset, then sign in.
    const owner = client(t.app, { ip: '10.6.0.3' });
    for (let i = 0; i < limit + 2; i++) {
      expect((await owner.post(`${AUTH}/check-code`, { code })).status).toBe(200);
    }
    expect(
      (await owner.post(`${AUTH}/reset-password`, { code, password: 'new-password-9' })).status,
    ).toBe(200);
    expect((await signInFrom('10.6.0.3', 'resetter', 'new-password-9')).status).toBe(200);
  });
});

describe('reset-password (code, password)', () => {
  const issueCode = async (): Promise<string> => {
    await t.app.services.auth.recoveryOutbox.idle();
    t.mailbox.mails.length = 0;
    await client(t.app, { ip: '10.7.0.9' }).post(`${AUTH}/recover-password`, {
      email: 'spec@example.com',
    });
    return codeFromMail(await t.mailbox.waitFor('spec@example.com'));
  };

  it('accepts code and password alone', async () => {
    const code = await issueCode();
    const res = await client(t.app, { ip: '10.7.0.1' }).post(`${AUTH}/reset-password`, {
      code,
      password: 'spec-password-1',
    });
    expect(res.status).toBe(200);
    expect((await signInFrom('10.7.0.1', 'spec', 'spec-password-1')).status).toBe(200);
  });

  it('checks confirm_password when it is sent', async () => {
    const code = await issueCode();
    const c = client(t.app, { ip: '10.7.0.2', lang: 'en' });
    const mismatch = await c.post(`${AUTH}/reset-password`, {
      code,
      password: 'spec-password-2',
      confirm_password: 'something-else',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual([
      { field: 'confirm_password', message: 'Passwords must match' },
    ]);
    const matched = await c.post(`${AUTH}/reset-password`, {
      code,
      password: 'spec-password-2',
      confirm_password: 'spec-password-2',
    });
    expect(matched.status).toBe(200);
    expect((await signInFrom('10.7.0.2', 'spec', 'spec-password-2')).status).toBe(200);
  });

  it('still lists the field errors without a password', async () => {
    const res = await client(t.app, { ip: '10.7.0.3', lang: 'en' }).post(`${AUTH}/reset-password`, {
      code: 'x',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'password', message: 'Required password' }]);
  });
});
