import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY, runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/** The CSV export opens in the user's spreadsheet; the dashboard hides agents. */
let t: TestApp;
let c: Tenants;
let robot: number;
let execution: number;
const NAME = 'Relatório; "mensal", São Paulo';

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['HISTORIC.LIST', 'ROBOS.LIST'] });
  robot = await createRobot(c.admin, NAME);
  execution = await runNow(c.admin, { id: robot });
});
afterAll(async () => {
  await t?.close();
});

const today = () => new Date().toISOString().slice(0, 10);
const range = () => ({ startDate: today(), endDate: today() });

/** RFC 4180 with a given delimiter: quoted fields may hold the delimiter, quotes and newlines. */
function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

async function exportAs(lang: 'pt' | 'en', timeZone?: string) {
  const as = client(t.app, { token: c.adminToken, lang });
  const res = await as.post(`${ACTIVITY}/export`, {
    ...range(),
    rota_robots_id: robot,
    ...(timeZone ? { timeZone } : {}),
  });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv; charset=utf-8');
  return res.body as string;
}

/** The run's queued instant as JSON says it, to compare with the file's local rendering. */
async function queuedAt(): Promise<Date> {
  const res = await c.admin.post(`${ACTIVITY}/show`, { id: execution });
  expect(res.status).toBe(200);
  return new Date(res.body.data.queued_at as string);
}

const pad = (n: number) => String(n).padStart(2, '0');

describe('the activity CSV export', () => {
  it('pt: BOM, `;`, pt headers and statuses, dates dd/MM/yyyy HH:mm:ss in the given zone', async () => {
    const text = await exportAs('pt', 'America/Sao_Paulo');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(text.slice(1), ';');
    expect(rows).toHaveLength(2);
    const [header, line] = rows as [string[], string[]];
    expect(header.slice(0, 3)).toEqual(['ID da execução', 'Nome do processo', 'Executor']);
    const cell = (name: string) => line[header.indexOf(name)];
    expect(cell('ID da execução')).toBe(String(execution));
    expect(cell('Nome do processo')).toBe(NAME);
    expect(cell('Status')).toBe('Na fila');
    expect(cell('Origem')).toBe('Manual');
    // São Paulo keeps UTC−3 all year (no daylight saving since 2019).
    const local = new Date((await queuedAt()).getTime() - 3 * 3_600_000);
    expect(cell('Na fila em')).toBe(
      `${pad(local.getUTCDate())}/${pad(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} ` +
        `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`,
    );
    expect(cell('Início')).toBe('');
  });

  it('en: BOM, `,`, en headers and statuses, dates MM/dd/yyyy hh:mm:ss AM in UTC by default', async () => {
    const text = await exportAs('en');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(text.slice(1), ',');
    expect(rows).toHaveLength(2);
    const [header, line] = rows as [string[], string[]];
    expect(header).toContain('Execution ID');
    const cell = (name: string) => line[header.indexOf(name)];
    expect(cell('Process name')).toBe(NAME);
    expect(cell('Status')).toBe('Queued');
    expect(cell('Origin')).toBe('Manual');
    const at = await queuedAt();
    const hour12 = at.getUTCHours() % 12 === 0 ? 12 : at.getUTCHours() % 12;
    expect(cell('Queued at')).toBe(
      `${pad(at.getUTCMonth() + 1)}/${pad(at.getUTCDate())}/${at.getUTCFullYear()} ` +
        `${pad(hour12)}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())} ` +
        (at.getUTCHours() < 12 ? 'AM' : 'PM'),
    );
  });

  it('writes the run message in the reader’s language', async () => {
    const vm = await createVm(c.admin, 'Export VM');
    const { token } = await createAgent(c.admin, 'Export agent', vm);
    const agent = simulatedAgent(t.app, token);
    expect((await agent.hello()).status).toBe(200);
    const claimed = (await agent.claim())!.execution_id;
    expect((await c.admin.post(`${ACTIVITY}/fail`, { id: claimed })).status).toBe(200);
    const messageOf = (text: string, delimiter: string, column: string) => {
      const [header, ...lines] = parseCsv(text.slice(1), delimiter) as [string[], ...string[][]];
      const line = lines.find((l) => l[0] === String(claimed))!;
      return line[header.indexOf(column)];
    };
    expect(messageOf(await exportAs('pt'), ';', 'Mensagem')).toMatch(/^encerrada por /);
    expect(messageOf(await exportAs('en'), ',', 'Message')).toMatch(/^ended by /);
  });

  it('refuses an unknown time zone with a field error', async () => {
    const res = await c.admin.post(`${ACTIVITY}/export`, { ...range(), timeZone: 'Mars/Olympus' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('timeZone');
  });
});

describe('the dashboard', () => {
  const DASHBOARD = '/api/rota/dashboard/api/v1/index';

  it('counts agents and VMs for a user who may list them', async () => {
    const res = await c.admin.post(DASHBOARD, range());
    expect(res.status).toBe(200);
    expect(res.body.data.agents).toEqual({
      active: expect.any(Number),
      inactive: expect.any(Number),
    });
    expect(res.body.data.vms).toMatchObject({ total: expect.any(Number) });
  });

  it('leaves agents and VMs out for a user without AGENTES.LIST', async () => {
    const res = await c.limited.post(DASHBOARD, range());
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty('agents');
    expect(res.body.data).not.toHaveProperty('vms');
    expect(res.body.data.totals).toMatchObject({ robots: expect.any(Number) });
  });
});
