import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateMessage, type MessageKey } from '@rota/contract';
import { rotaSchedulings } from '../src/db/schema/index.js';
import { openPostgres } from '../src/db/client.js';
import { FakeClock } from '../src/lib/clock.js';
import { openTestDatabase } from './helpers/database.js';
import { createRobot } from './helpers/robots.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const SCH = '/api/rota/scheduling/api/v1';
const CAL = '/api/rota/calendar/api/v1';

// Friday 2026-11-27, 09:00 in São Paulo (UTC-3, no daylight saving since 2019).
const FRIDAY = '2026-11-27T12:00:00.000Z';
const clock = new FakeClock(new Date(FRIDAY));
let t: TestApp;
let c: Tenants;
let robot: number;
let names = 0;

async function createScheduling(body: object): Promise<{ id: number; next: string | null }> {
  const res = await c.admin.post(`${SCH}/create`, {
    name: `Cron ${++names}`,
    rota_robots_id: robot,
    timeout_minutes: 10,
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.rota_schedulings_id, next: res.body.data.next_run_at };
}

async function createCalendar(body: object): Promise<number> {
  const res = await c.admin.post(`${CAL}/create`, { name: `Calendar ${++names}`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.rota_calendars_id;
}

const show = async (id: number) => (await c.admin.post(`${SCH}/show`, { id })).body.data;
const nextRunOf = async (id: number) => (await show(id)).next_run_at as string | null;

async function preview(body: object, as = c.admin): Promise<string[]> {
  const res = await as.post(`${SCH}/preview`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.next;
}

/** Stops every scheduling but `id`, so a tick's count is that scheduling's. */
async function only(id: number) {
  await t.db.update(rotaSchedulings).set({ active: false }).where(eq(rotaSchedulings.active, true));
  await t.db
    .update(rotaSchedulings)
    .set({ active: true })
    .where(eq(rotaSchedulings.rota_schedulings_id, id));
}

const tick = () => t.app.engine.queueDueSchedulings();

beforeAll(async () => {
  t = await createTestApp({ clock });
  c = await setUpTenants(t, { permissions: ['AGENDAMENTOS.LIST'] });
  robot = await createRobot(c.admin, 'Cron robot');
});
afterAll(() => t.close());

describe('cron schedulings', () => {
  it('answers the next occurrence of 0 7 * * 1-5 in America/Sao_Paulo, and previews five', async () => {
    clock.set(FRIDAY);
    const cron = { trigger_type: 'cron', cron: '0 7 * * 1-5', time_zone: 'America/Sao_Paulo' };
    expect(await preview(cron)).toEqual([
      '2026-11-30T10:00:00.000Z',
      '2026-12-01T10:00:00.000Z',
      '2026-12-02T10:00:00.000Z',
      '2026-12-03T10:00:00.000Z',
      '2026-12-04T10:00:00.000Z',
    ]);
    const { id, next } = await createScheduling(cron);
    expect(next).toBe('2026-11-30T10:00:00.000Z');
    const shown = await show(id);
    expect(shown).toMatchObject({
      trigger_type: 'cron',
      cron: '0 7 * * 1-5',
      time_zone: 'America/Sao_Paulo',
      missed_runs: 'run_once',
      rota_calendars_id: null,
    });
  });

  it('reads names, lists, steps and day-of-month OR day-of-week', async () => {
    clock.set(FRIDAY);
    const tz = { trigger_type: 'cron', time_zone: 'UTC' };
    expect(await preview({ ...tz, cron: '30 9 * * MON,wed' })).toEqual([
      '2026-11-30T09:30:00.000Z',
      '2026-12-02T09:30:00.000Z',
      '2026-12-07T09:30:00.000Z',
      '2026-12-09T09:30:00.000Z',
      '2026-12-14T09:30:00.000Z',
    ]);
    expect(await preview({ ...tz, cron: '*/20 13-14 * * *' })).toEqual([
      '2026-11-27T13:00:00.000Z',
      '2026-11-27T13:20:00.000Z',
      '2026-11-27T13:40:00.000Z',
      '2026-11-27T14:00:00.000Z',
      '2026-11-27T14:20:00.000Z',
    ]);
    // The 13th of the month OR a Friday, as Vixie cron reads it.
    expect(await preview({ ...tz, cron: '0 0 13 * FRI' })).toEqual([
      '2026-12-04T00:00:00.000Z',
      '2026-12-11T00:00:00.000Z',
      '2026-12-13T00:00:00.000Z',
      '2026-12-18T00:00:00.000Z',
      '2026-12-25T00:00:00.000Z',
    ]);
    // An expression that never fires answers none, and a scheduling on it never runs.
    expect(await preview({ ...tz, cron: '0 0 30 2 *' })).toEqual([]);
    expect((await createScheduling({ ...tz, cron: '0 0 30 2 *' })).next).toBeNull();
  });

  it("reads a cron without a zone in the server's, and says which", async () => {
    const { id } = await createScheduling({ trigger_type: 'cron', cron: '0 7 * * *' });
    expect((await show(id)).time_zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('runs a 02:30 that daylight saving skips once, and a 01:30 it repeats once (New York)', async () => {
    const spring = { trigger_type: 'cron', cron: '30 2 * * *', time_zone: 'America/New_York' };
    clock.set('2026-03-07T12:00:00Z');
    // 2026-03-08: 02:00 EST jumps to 03:00 EDT; the run happens once, at 03:00 EDT.
    expect((await preview(spring)).slice(0, 3)).toEqual([
      '2026-03-08T07:00:00.000Z',
      '2026-03-09T06:30:00.000Z',
      '2026-03-10T06:30:00.000Z',
    ]);
    const { id } = await createScheduling(spring);
    await only(id);
    expect(await nextRunOf(id)).toBe('2026-03-08T07:00:00.000Z');
    clock.set('2026-03-08T07:00:00Z');
    expect(await tick()).toBe(1);
    expect(await nextRunOf(id)).toBe('2026-03-09T06:30:00.000Z');

    const fall = { trigger_type: 'cron', cron: '30 1 * * *', time_zone: 'America/New_York' };
    clock.set('2026-10-31T12:00:00Z');
    // 2026-11-01: 01:30 happens twice (EDT, then EST); the run happens once, at the first.
    expect((await preview(fall)).slice(0, 2)).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
    const second = await createScheduling(fall);
    await only(second.id);
    clock.set('2026-11-01T05:30:00Z');
    expect(await tick()).toBe(1);
    expect(await nextRunOf(second.id)).toBe('2026-11-02T06:30:00.000Z');
    clock.set('2026-11-01T06:30:00Z');
    expect(await tick()).toBe(0);
  });

  it('queues a due cron run at its time, not before, and moves to the next occurrence', async () => {
    clock.set('2026-11-27T06:00:00Z');
    const { id } = await createScheduling({
      trigger_type: 'cron',
      cron: '0 7 * * *',
      time_zone: 'UTC',
    });
    await only(id);
    expect(await tick()).toBe(0);
    clock.set('2026-11-27T06:59:59Z');
    expect(await tick()).toBe(0);
    clock.set('2026-11-27T07:00:00Z');
    expect(await tick()).toBe(1);
    expect(await nextRunOf(id)).toBe('2026-11-28T07:00:00.000Z');
    expect(await tick()).toBe(0);
  });

  it('answers no next run for a queue trigger, an inactive or a deleted scheduling', async () => {
    clock.set(FRIDAY);
    expect(await preview({ trigger_type: 'queue' })).toEqual([]);
    expect((await createScheduling({ trigger_type: 'queue' })).next).toBeNull();
    const inactive = await createScheduling({ interval_minutes: 30, active: false });
    expect(inactive.next).toBeNull();
    // Switched on, an interval runs now, as at creation.
    await c.admin.put(`${SCH}/update`, { id: inactive.id, active: true });
    expect(await nextRunOf(inactive.id)).toBe(FRIDAY);
    await c.admin.post(`${SCH}/delete`, { id: inactive.id });
    expect(await nextRunOf(inactive.id)).toBeNull();
  });

  it('moves the next run when the trigger, cron or zone changes', async () => {
    clock.set(FRIDAY);
    const { id, next } = await createScheduling({ interval_minutes: 60 });
    expect(next).toBe(FRIDAY);
    await c.admin.put(`${SCH}/update`, { id, trigger_type: 'cron', cron: '0 18 * * *' });
    const shown = await show(id);
    expect(shown.time_zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    await c.admin.put(`${SCH}/update`, { id, time_zone: 'Asia/Tokyo' });
    // 18:00 in Tokyo (UTC+9) is 09:00Z: the 27th's has passed at 12:00Z.
    expect(await nextRunOf(id)).toBe('2026-11-28T09:00:00.000Z');
    await c.admin.put(`${SCH}/update`, { id, cron: '0 22 * * *' });
    expect(await nextRunOf(id)).toBe('2026-11-27T13:00:00.000Z');
    // Back to its interval: runs within one interval from now.
    await c.admin.put(`${SCH}/update`, { id, trigger_type: 'interval' });
    expect(await nextRunOf(id)).toBe(FRIDAY);
    // A name change keeps the next run.
    clock.set('2026-11-27T12:10:00Z');
    await c.admin.put(`${SCH}/update`, { id, name: 'Renamed cron' });
    expect(await nextRunOf(id)).toBe(FRIDAY);
  });
});

describe('calendars and schedulings', () => {
  it('skips excluded dates in the preview, next_run_at and the scheduler', async () => {
    clock.set(FRIDAY);
    const calendar = await createCalendar({
      time_zone: 'America/Sao_Paulo',
      excluded_dates: ['2026-11-30', '2026-12-02'],
    });
    const cron = {
      trigger_type: 'cron',
      cron: '0 7 * * 1-5',
      time_zone: 'America/Sao_Paulo',
      rota_calendars_id: calendar,
    };
    expect(await preview(cron)).toEqual([
      '2026-12-01T10:00:00.000Z',
      '2026-12-03T10:00:00.000Z',
      '2026-12-04T10:00:00.000Z',
      '2026-12-07T10:00:00.000Z',
      '2026-12-08T10:00:00.000Z',
    ]);
    const { id, next } = await createScheduling(cron);
    expect(next).toBe('2026-12-01T10:00:00.000Z');
    await only(id);
    clock.set('2026-12-01T10:00:00Z');
    expect(await tick()).toBe(1);
    expect(await nextRunOf(id)).toBe('2026-12-03T10:00:00.000Z');

    // An occurrence that became excluded after it was stored queues nothing when due.
    await t.db
      .update(rotaSchedulings)
      .set({ next_run_at: new Date('2026-12-02T10:00:00Z') })
      .where(eq(rotaSchedulings.rota_schedulings_id, id));
    // Its previous run is still queued: let it go so only the calendar can stop this one.
    await t.db.execute(
      sql`update rota_executions set status = 'cancelled' where rota_schedulings_id = ${id}`,
    );
    clock.set('2026-12-02T10:00:00Z');
    expect(await tick()).toBe(0);
    expect(await nextRunOf(id)).toBe('2026-12-03T10:00:00.000Z');
    clock.set('2026-12-03T10:00:00Z');
    expect(await tick()).toBe(1);
  });

  it('skips excluded dates for an interval too, and its first run when today is excluded', async () => {
    clock.set('2026-11-27T20:00:00Z');
    const calendar = await createCalendar({ time_zone: 'UTC', excluded_dates: ['2026-11-27'] });
    const interval = {
      trigger_type: 'interval',
      interval_minutes: 300,
      rota_calendars_id: calendar,
    };
    // Ticks 20:00, 01:00, 06:00...: the first not on the 27th is 01:00 of the 28th.
    expect(await preview(interval)).toEqual([
      '2026-11-28T01:00:00.000Z',
      '2026-11-28T06:00:00.000Z',
      '2026-11-28T11:00:00.000Z',
      '2026-11-28T16:00:00.000Z',
      '2026-11-28T21:00:00.000Z',
    ]);
    const { id, next } = await createScheduling(interval);
    expect(next).toBe('2026-11-28T01:00:00.000Z');
    await only(id);
    expect(await tick()).toBe(0);
    clock.set('2026-11-28T01:00:00Z');
    expect(await tick()).toBe(1);
    expect(await nextRunOf(id)).toBe('2026-11-28T06:00:00.000Z');
  });

  it('answers fewer or none when the calendar excludes every day the cron fires', async () => {
    clock.set(FRIDAY);
    const days: string[] = [];
    for (let d = new Date('2026-11-27T00:00:00Z'); days.length < 10000;) {
      days.push(d.toISOString().slice(0, 10));
      d = new Date(d.getTime() + 86_400_000);
    }
    const calendar = await createCalendar({ time_zone: 'UTC', excluded_dates: days });
    const weekdaysOnly = await createCalendar({
      time_zone: 'UTC',
      excluded_dates: days.filter((d) => ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay())),
    });
    // Beyond the excluded stretch (27 years on), it runs again.
    expect(
      await preview({
        trigger_type: 'cron',
        cron: '0 7 * * *',
        time_zone: 'UTC',
        rota_calendars_id: calendar,
      }),
    ).toEqual([
      '2054-04-14T07:00:00.000Z',
      '2054-04-15T07:00:00.000Z',
      '2054-04-16T07:00:00.000Z',
      '2054-04-17T07:00:00.000Z',
      '2054-04-18T07:00:00.000Z',
    ]);
    // Weekday runs on a calendar excluding every weekday: the bounded search gives up.
    const none = {
      trigger_type: 'cron',
      cron: '0 7 * * 1-5',
      time_zone: 'UTC',
      rota_calendars_id: weekdaysOnly,
    };
    expect(await preview(none)).toEqual([]);
    expect((await createScheduling(none)).next).toBeNull();
  });
});

describe('missed runs', () => {
  async function downtime(missed_runs: 'run_once' | 'skip') {
    clock.set('2026-11-27T10:30:00Z');
    const { id } = await createScheduling({
      trigger_type: 'cron',
      cron: '0 * * * *',
      time_zone: 'UTC',
      missed_runs,
    });
    await only(id);
    expect(await nextRunOf(id)).toBe('2026-11-27T11:00:00.000Z');
    // Every server was down from 10:45 to 15:20: four occurrences missed.
    clock.set('2026-11-27T15:20:00Z');
    const queued = await tick();
    expect(await nextRunOf(id)).toBe('2026-11-27T16:00:00.000Z');
    return { id, queued };
  }

  it('run_once queues one late run after downtime', async () => {
    expect((await downtime('run_once')).queued).toBe(1);
  });

  it('skip queues none after downtime, but still runs an occurrence a few ticks late', async () => {
    const { id, queued } = await downtime('skip');
    expect(queued).toBe(0);
    clock.set('2026-11-27T16:00:45Z');
    expect(await tick()).toBe(1);
    expect(await nextRunOf(id)).toBe('2026-11-27T17:00:00.000Z');
  });
});

describe('validation', () => {
  const message = (key: MessageKey, lang: 'en' | 'pt' = 'en') => translateMessage(lang, key);

  it('refuses a bad cron, a bad zone, NUL and huge numbers with field errors, in en and pt', async () => {
    const base = { trigger_type: 'cron', time_zone: 'UTC' };
    for (const cron of ['61 * * * *', '0 0 99999999999999 * *', '* * * *', '0 7 * * MON-XYZ']) {
      const res = await c.admin.post(`${SCH}/preview`, { ...base, cron });
      expect(res.status, cron).toBe(400);
      expect(res.body.errors, cron).toEqual([{ field: 'cron', message: message('invalid_cron') }]);
      const created = await c.admin.post(`${SCH}/create`, {
        name: 'Bad cron',
        rota_robots_id: robot,
        timeout_minutes: 10,
        ...base,
        cron,
      });
      expect(created.status, cron).toBe(400);
      expect(created.body.errors[0].field).toBe('cron');
    }
    const nul = await c.admin.post(`${SCH}/preview`, { ...base, cron: '0 7 * * \u0000' });
    expect(nul.status).toBe(400);
    expect(nul.body.errors[0].field).toBe('cron');

    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    const ptRes = await pt.post(`${SCH}/preview`, { ...base, cron: '61 * * * *' });
    expect(ptRes.body.errors).toEqual([{ field: 'cron', message: message('invalid_cron', 'pt') }]);

    const zone = await c.admin.post(`${SCH}/preview`, {
      trigger_type: 'cron',
      cron: '0 7 * * *',
      time_zone: 'America/Atlantis',
    });
    expect(zone.status).toBe(400);
    expect(zone.body.errors).toEqual([
      { field: 'time_zone', message: message('invalid_time_zone') },
    ]);
    const ptZone = await pt.post(`${SCH}/preview`, {
      trigger_type: 'cron',
      cron: '0 7 * * *',
      time_zone: 'UTC\u0000',
    });
    expect(ptZone.status).toBe(400);
    // NUL is refused by the app's own check too; both name the field.
    expect(ptZone.body.errors).toContainEqual({
      field: 'time_zone',
      message: message('invalid_time_zone', 'pt'),
    });

    const huge = await c.admin.post(`${SCH}/preview`, {
      trigger_type: 'interval',
      interval_minutes: 1e12,
    });
    expect(huge.status).toBe(400);
    expect(huge.body.errors[0].field).toBe('interval_minutes');
    const hugeCalendar = await c.admin.post(`${SCH}/preview`, {
      trigger_type: 'cron',
      cron: '0 7 * * *',
      rota_calendars_id: 1e12,
    });
    expect(hugeCalendar.status).toBe(400);
    expect(hugeCalendar.body.errors[0].field).toBe('rota_calendars_id');
  });

  it('needs a cron for a cron trigger, also when an update switches to one', async () => {
    const res = await c.admin.post(`${SCH}/create`, {
      name: 'No cron',
      rota_robots_id: robot,
      timeout_minutes: 10,
      trigger_type: 'cron',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'cron', message: message('required_cron') }]);
    expect((await c.admin.post(`${SCH}/preview`, { trigger_type: 'cron' })).status).toBe(400);

    const { id } = await createScheduling({ interval_minutes: 15 });
    const switched = await c.admin.put(`${SCH}/update`, { id, trigger_type: 'cron' });
    expect(switched.status).toBe(400);
    expect(switched.body.errors).toEqual([{ field: 'cron', message: message('required_cron') }]);
    const bad = await c.admin.put(`${SCH}/update`, {
      id,
      trigger_type: 'cron',
      cron: '0 25 * * *',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'cron', message: message('invalid_cron') }]);
    expect((await show(id)).trigger_type).toBe('interval');
    // A cron kept beside an interval must read too.
    const kept = await c.admin.put(`${SCH}/update`, { id, cron: '99 * * * *' });
    expect(kept.body.errors).toEqual([{ field: 'cron', message: message('invalid_cron') }]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('two instances on PostgreSQL', () => {
  it('queues each due cron occurrence exactly once when both tick together', async () => {
    const shared = new FakeClock(new Date('2026-11-27T06:59:00Z'));
    const database = await openTestDatabase();
    const first = await createTestApp({ database, clock: shared });
    const second = await createTestApp({
      database: await openPostgres(database.url!, 4),
      clock: shared,
    });
    try {
      const admin = client(first.app, {
        token: await signIn(first.app, ADMIN.access, ADMIN.password),
      });
      const robotId = await createRobot(admin, 'Two-instance cron robot');
      for (let i = 0; i < 50; i += 1) {
        const res = await admin.post(`${SCH}/create`, {
          name: `07:00 ${i}`,
          rota_robots_id: robotId,
          timeout_minutes: 5,
          trigger_type: 'cron',
          cron: '0 7 * * *',
          time_zone: 'UTC',
        });
        expect(res.status).toBe(201);
      }
      const ticks = () =>
        Promise.all([
          first.app.engine.queueDueSchedulings(),
          second.app.engine.queueDueSchedulings(),
          first.app.engine.queueDueSchedulings(),
          second.app.engine.queueDueSchedulings(),
        ]);
      expect((await ticks()).reduce((a, b) => a + b, 0)).toBe(0);
      shared.set('2026-11-27T07:00:00Z');
      expect((await ticks()).reduce((a, b) => a + b, 0)).toBe(50);
      const [row] = (
        (await first.db.execute(
          sql`select count(*)::int as n, count(distinct rota_schedulings_id)::int as schedulings,
                     min(next_run_at) = max(next_run_at) as same_next, min(next_run_at) as next
                from rota_executions e
                join rota_schedulings s using (rota_schedulings_id)
               where e.rota_robots_id = ${robotId}`,
        )) as unknown as { rows: { n: number; schedulings: number; same_next: boolean }[] }
      ).rows;
      expect(row).toMatchObject({ n: 50, schedulings: 50, same_next: true });
    } finally {
      await second.close();
      await first.close();
    }
  });
});
