import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../src/lib/clock.js';
import { createRobot } from './helpers/robots.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const CAL = '/api/rota/calendar/api/v1';
const SCH = '/api/rota/scheduling/api/v1';
const AUDIT = '/api/rota/audit/api/v1';

// Friday 2026-11-27, 09:00 in São Paulo.
const clock = new FakeClock(new Date('2026-11-27T12:00:00Z'));
let t: TestApp;
let c: Tenants;
let robot: number;

async function createCalendar(body: object, as = c.admin): Promise<number> {
  const res = await as.post(`${CAL}/create`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.rota_calendars_id;
}

async function createScheduling(body: object): Promise<number> {
  const res = await c.admin.post(`${SCH}/create`, {
    rota_robots_id: robot,
    timeout_minutes: 10,
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.rota_schedulings_id;
}

const nextRunOf = async (id: number) =>
  (await c.admin.post(`${SCH}/show`, { id })).body.data.next_run_at as string | null;

beforeAll(async () => {
  t = await createTestApp({ clock });
  c = await setUpTenants(t, { permissions: ['AGENDAMENTOS.LIST'] });
  robot = await createRobot(c.admin, 'Calendar robot');
});
afterAll(() => t.close());

describe('business calendars', () => {
  it('round-trips create, show, update, list and delete, audited', async () => {
    const created = await c.admin.post(`${CAL}/create`, {
      name: 'Brazil holidays',
      time_zone: 'America/Sao_Paulo',
      excluded_dates: ['2026-12-25', '2026-11-30', '2026-12-25'],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Brazil holidays',
      time_zone: 'America/Sao_Paulo',
      // Sorted, each once.
      excluded_dates: ['2026-11-30', '2026-12-25'],
    });
    const id = created.body.data.rota_calendars_id;
    expect((await c.admin.post(`${CAL}/show`, { id })).body.data).toEqual(created.body.data);

    const updated = await c.admin.put(`${CAL}/update`, {
      id,
      excluded_dates: ['2027-01-01'],
    });
    expect(updated.status).toBe(204);
    expect((await c.admin.post(`${CAL}/show`, { id })).body.data.excluded_dates).toEqual([
      '2027-01-01',
    ]);

    const list = await c.admin.post(`${CAL}/index`, { search: 'brazil' });
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { rota_calendars_id: number }) => x.rota_calendars_id)).toEqual([
      id,
    ]);
    expect(list.body.meta.total).toBe(1);

    // The limited user lists and reads, but may not write.
    expect((await c.limited.post(`${CAL}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${CAL}/create`, { name: 'Nope' })).status).toBe(403);

    const removed = await c.admin.post(`${CAL}/delete`, { id });
    expect(removed.status).toBe(202);
    expect((await c.admin.post(`${CAL}/show`, { id })).status).toBe(404);

    const audit = await c.admin.post(`${AUDIT}/index`, { entity: 'calendar' });
    expect(audit.status).toBe(200);
    const actions = audit.body.data
      .filter((r: { entity_id: string }) => r.entity_id === String(id))
      .map((r: { action: string }) => r.action)
      .sort();
    expect(actions).toEqual(['create', 'delete', 'update']);
  });

  it('answers the server zone when none is given', async () => {
    const id = await createCalendar({ name: 'Zone-less' });
    const shown = (await c.admin.post(`${CAL}/show`, { id })).body.data;
    expect(shown.time_zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('refuses a duplicate name (409), a bad zone and bad dates (400), in en and pt', async () => {
    await createCalendar({ name: 'Duplicated' });
    const dup = await c.admin.post(`${CAL}/create`, { name: 'duplicated' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'name', message: 'A calendar with this name already exists' },
    ]);

    const zone = await c.admin.post(`${CAL}/create`, { name: 'Zoned', time_zone: 'Mars/Base' });
    expect(zone.status).toBe(400);
    expect(zone.body.errors[0].field).toBe('time_zone');

    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    const ptDup = await pt.post(`${CAL}/create`, { name: 'Duplicated' });
    expect(ptDup.body.errors).toEqual([
      { field: 'name', message: 'Já existe um calendário com este nome' },
    ]);

    const dates = await c.admin.post(`${CAL}/create`, {
      name: 'Dated',
      excluded_dates: ['2026-02-30'],
    });
    expect(dates.status).toBe(400);
    const nul = await c.admin.post(`${CAL}/create`, { name: 'Nul\u0000', time_zone: 'UTC\u0000' });
    expect(nul.status).toBe(400);
  });

  it("keeps another client's calendar invisible", async () => {
    const foreign = await createCalendar({ name: 'Foreign' }, c.other);
    expect((await c.admin.post(`${CAL}/show`, { id: foreign })).status).toBe(404);
    expect((await c.admin.put(`${CAL}/update`, { id: foreign, excluded_dates: [] })).status).toBe(
      404,
    );
    expect((await c.admin.post(`${CAL}/delete`, { id: foreign })).status).toBe(404);
    const list = await c.admin.post(`${CAL}/index`, { search: 'Foreign' });
    expect(list.body.data).toEqual([]);

    // Nor may a scheduling or a preview name it.
    const res = await c.admin.post(`${SCH}/create`, {
      name: 'Foreign calendar',
      rota_robots_id: robot,
      timeout_minutes: 10,
      trigger_type: 'cron',
      cron: '0 7 * * *',
      rota_calendars_id: foreign,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'rota_calendars_id', message: 'This calendar does not exist' },
    ]);
    const preview = await c.admin.post(`${SCH}/preview`, {
      trigger_type: 'cron',
      cron: '0 7 * * *',
      rota_calendars_id: foreign,
    });
    expect(preview.status).toBe(400);
    expect(preview.body.errors[0].field).toBe('rota_calendars_id');
  });

  it('refuses to delete a calendar a live scheduling names (409); deleted ones let go', async () => {
    const id = await createCalendar({ name: 'In use', time_zone: 'UTC' });
    const scheduling = await createScheduling({
      name: 'On a calendar',
      trigger_type: 'cron',
      cron: '0 7 * * *',
      time_zone: 'UTC',
      rota_calendars_id: id,
    });
    const refused = await c.admin.post(`${CAL}/delete`, { id });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      { field: 'id', message: 'Schedulings use this calendar; change them first' },
    ]);

    expect((await c.admin.post(`${SCH}/delete`, { id: scheduling })).status).toBe(202);
    expect((await c.admin.post(`${CAL}/delete`, { id })).status).toBe(202);
    // Restored, it runs without the calendar.
    expect((await c.admin.post(`${SCH}/restore`, { id: scheduling })).status).toBe(200);
    const restored = (await c.admin.post(`${SCH}/show`, { id: scheduling })).body.data;
    expect(restored.rota_calendars_id).toBeNull();
    expect(restored.next_run_at).toBe('2026-11-28T07:00:00.000Z');
  });

  it('moves the next run of its schedulings when its days or zone change', async () => {
    clock.set('2026-11-27T12:00:00Z');
    const id = await createCalendar({ name: 'Moving', time_zone: 'America/Sao_Paulo' });
    const scheduling = await createScheduling({
      name: 'Weekday 07:00',
      trigger_type: 'cron',
      cron: '0 7 * * 1-5',
      time_zone: 'America/Sao_Paulo',
      rota_calendars_id: id,
    });
    // Monday 2026-11-30, 07:00 in São Paulo (UTC-3).
    expect(await nextRunOf(scheduling)).toBe('2026-11-30T10:00:00.000Z');

    await c.admin.put(`${CAL}/update`, { id, excluded_dates: ['2026-11-30', '2026-12-01'] });
    expect(await nextRunOf(scheduling)).toBe('2026-12-02T10:00:00.000Z');

    // Days are read in the calendar's zone: 07:00 in São Paulo is 19:00 in Tokyo, same day.
    await c.admin.put(`${CAL}/update`, {
      id,
      time_zone: 'Asia/Tokyo',
      excluded_dates: ['2026-12-01'],
    });
    expect(await nextRunOf(scheduling)).toBe('2026-11-30T10:00:00.000Z');
    await c.admin.put(`${CAL}/update`, { id, excluded_dates: ['2026-11-30'] });
    expect(await nextRunOf(scheduling)).toBe('2026-12-01T10:00:00.000Z');
  });
});
