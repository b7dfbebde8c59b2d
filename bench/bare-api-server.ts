/**
 * The yardstick of bench/api-overhead.ts: a bare Fastify server that answers the
 * robot list and `me` with the very SQL statements Rota runs for them (captured from Rota's
 * driver calls, hard-coded here), on a `pg` pool of the same size and options, with no ORM,
 * no schema validation or serializer, no hooks and no logging. What Rota spends beyond it is
 * the cost of its request path.
 *
 *   node --import tsx bench/bare-api-server.ts <database url> [pool size]
 *
 * Prints one JSON line `{"address": …}` once it listens.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import type pgTypes from 'pg';

// The server's own pg (root node_modules), not the bench's copy: the same driver on both sides.
const pg = createRequire(new URL('../apps/server/src/db/client.ts', import.meta.url))(
  'pg',
) as typeof pgTypes;

const [url, poolArg] = process.argv.slice(2);
if (!url) throw new Error('usage: bare-api-server.ts <database url> [pool size]');
const pool = new pg.Pool({
  connectionString: url,
  max: Number(poolArg ?? 10),
  options: '-c random_page_cost=1.1',
});
pool.on('error', () => undefined);

// Captured from Rota's driver calls (bench/api-overhead.ts's servers speak to the same
// database). Rota runs the session check, `me`'s two reads, the unfiltered or `active`-filtered
// robot page with its total as named prepared statements (lib/sql-rows.ts hotStatement): so does
// this server, under the same names. A search runs unnamed in both.
const SESSION =
  'select "sessions"."sessions_id", "sessions"."expires_at", "sessions"."revoked_at", "sessions"."last_used_at", "user_accounts"."users_id", "user_accounts"."name", "user_accounts"."last_name", "user_accounts"."email", "user_accounts"."group", "user_accounts"."avatar", "user_accounts"."language", "user_accounts"."color_scheme", "user_accounts"."password_change_required", "user_accounts"."is_platform_admin", "user_accounts"."rota_clients_id_selected", "memberships"."rota_clients_id" as "membership_client_id", "profile_grants"."permissions", case when exists (\n      select 1 from "team_users" tu\n      where tu.users_id = "user_accounts"."users_id" and tu.rota_clients_id = "memberships"."rota_clients_id")\n    then array(\n      select distinct tr.rota_robots_id from "team_users" tu\n      join "team_robots" tr on tr.teams_id = tu.teams_id\n      where tu.users_id = "user_accounts"."users_id" and tu.rota_clients_id = "memberships"."rota_clients_id")\n    end as "team_robot_ids" from "sessions" inner join (select "users_id", "name", "last_name", "email", "group", "avatar", "language", "color_scheme", "password_change_required", "is_platform_admin", "rota_clients_id_selected" from "users") "user_accounts" on "user_accounts"."users_id" = "sessions"."users_id" left join (select "user_clients_id", "users_id", "rota_clients_id", "profiles_id" from "user_clients") "memberships" on ("memberships"."users_id" = "user_accounts"."users_id" and "memberships"."rota_clients_id" = "user_accounts"."rota_clients_id_selected") left join (select "profiles_id", "rota_clients_id", "name", "permissions" from "profiles") "profile_grants" on "profile_grants"."profiles_id" = "memberships"."profiles_id" where "sessions"."token_hash" = $1';
const TOUCH =
  'update "sessions" set "last_used_at" = $1 where ("sessions"."sessions_id" = $2 and ("sessions"."last_used_at" is null or "sessions"."last_used_at" < $3))';
const MEMBERSHIPS =
  'select "client_names"."rota_clients_id", "client_names"."name", "profile_grants"."permissions" from "user_clients" inner join (select "rota_clients_id", "name" from "rota_clients") "client_names" on "client_names"."rota_clients_id" = "user_clients"."rota_clients_id" inner join (select "profiles_id", "rota_clients_id", "name", "permissions" from "profiles") "profile_grants" on "profile_grants"."profiles_id" = "user_clients"."profiles_id" where "user_clients"."users_id" = $1 order by "client_names"."name" asc, "client_names"."rota_clients_id" asc';
const MFA =
  'select "users_id" from "user_mfa" where ("user_mfa"."users_id" = $1 and "user_mfa"."enabled_at" is not null)';
const ROW_COUNT =
  'select "n" as "total" from "row_counts" where ("row_counts"."rota_clients_id" = $1 and "row_counts"."table_name" = $2)';
const PAGE =
  'select "rota_robots"."rota_robots_id", "rota_robots"."name", "rota_robots"."description", "rota_robots"."executor", "rota_robots"."remote_root", "rota_robots"."active", "package_summaries"."rota_robot_versions_id" as "current_version_id", "package_summaries"."version" as "current_version", "rota_robots"."task_sla_minutes", "rota_robots"."task_risk_minutes", "rota_robots"."task_retries", "rota_robots"."stall_minutes", "rota_robots"."stall_action", "rota_robots"."created_at", "rota_robots"."updated_at", (select "row_counts"."n" from "row_counts"\n                 where "row_counts"."rota_clients_id" = $1\n                   and "row_counts"."table_name" = $2) as "total_rows" from "rota_robots" left join (select "rota_robot_versions_id", "rota_clients_id", "rota_robots_id", "version", "sha256", "size_bytes", "format" from "rota_robot_versions") "package_summaries" on "package_summaries"."rota_robot_versions_id" = "rota_robots"."rota_robot_versions_id_current" where "rota_robots"."rota_clients_id" = $3 order by "rota_robots"."name" asc, "rota_robots"."rota_robots_id" asc limit $4 offset $5';
const PAGE_ACTIVE =
  'select "rota_robots"."rota_robots_id", "rota_robots"."name", "rota_robots"."description", "rota_robots"."executor", "rota_robots"."remote_root", "rota_robots"."active", "package_summaries"."rota_robot_versions_id" as "current_version_id", "package_summaries"."version" as "current_version", "rota_robots"."task_sla_minutes", "rota_robots"."task_risk_minutes", "rota_robots"."task_retries", "rota_robots"."stall_minutes", "rota_robots"."stall_action", "rota_robots"."created_at", "rota_robots"."updated_at", (select case when $1::boolean\n                          then coalesce(sum("row_counts"."n") filter (where "row_counts"."table_name" = $2), 0)\n                             - coalesce(sum("row_counts"."n") filter (where "row_counts"."table_name" = $3), 0)\n                          else coalesce(sum("row_counts"."n") filter (where "row_counts"."table_name" = $4), 0)\n                     end\n                from "row_counts"\n               where "row_counts"."rota_clients_id" = $5\n                 and "row_counts"."table_name" in ($6, $7)) as "total_rows" from "rota_robots" left join (select "rota_robot_versions_id", "rota_clients_id", "rota_robots_id", "version", "sha256", "size_bytes", "format" from "rota_robot_versions") "package_summaries" on "package_summaries"."rota_robot_versions_id" = "rota_robots"."rota_robot_versions_id_current" where ("rota_robots"."rota_clients_id" = $8 and "rota_robots"."active" = $9) order by "rota_robots"."name" asc, "rota_robots"."rota_robots_id" asc limit $10 offset $11';
// The active/inactive split kept in row_counts (migration 0022), as lib/row-counts.ts renders it.
const COUNT_ACTIVE_SPLIT = `select coalesce(sum("row_counts"."n") filter (where "row_counts"."table_name" = $1::text), 0) as total,
                      coalesce(sum("row_counts"."n") filter (where "row_counts"."table_name" <> $2::text), 0) as inactive
                 from "row_counts"
                where "row_counts"."rota_clients_id" = $3
                  and "row_counts"."table_name" in ($4::text, $5::text || '.inactive')`;
// The search, as Drizzle renders it per call (unprepared).
const ROBOT_COLUMNS = `select "rota_robots"."rota_robots_id", "rota_robots"."name", "rota_robots"."description", "rota_robots"."executor", "rota_robots"."remote_root", "rota_robots"."active", "package_summaries"."rota_robot_versions_id", "package_summaries"."version", "rota_robots"."task_sla_minutes", "rota_robots"."task_risk_minutes", "rota_robots"."task_retries", "rota_robots"."stall_minutes", "rota_robots"."stall_action", "rota_robots"."created_at", "rota_robots"."updated_at" from "rota_robots" left join (select "rota_robot_versions_id", "rota_clients_id", "rota_robots_id", "version", "sha256", "size_bytes", "format" from "rota_robot_versions") "package_summaries" on "package_summaries"."rota_robot_versions_id" = "rota_robots"."rota_robot_versions_id_current"`;
const ORDER = `order by "rota_robots"."name" asc, "rota_robots"."rota_robots_id" asc`;
const SEARCH = `("rota_robots"."name" ilike $2 or "rota_robots"."executor" ilike $3 or "rota_robots"."description" ilike $4)`;
// A search's first look at its matches (robots/repository.ts searchProbeStatement), as captured.
const SEARCH_PROBE = 200;
const PROBE = `with "hits" as (select "rota_robots"."rota_robots_id", "rota_robots"."name", "rota_robots"."description", "rota_robots"."executor", "rota_robots"."remote_root", "rota_robots"."active", "package_summaries"."rota_robot_versions_id" as "current_version_id", "package_summaries"."version" as "current_version", "rota_robots"."task_sla_minutes", "rota_robots"."task_risk_minutes", "rota_robots"."task_retries", "rota_robots"."stall_minutes", "rota_robots"."stall_action", "rota_robots"."created_at", "rota_robots"."updated_at" from "rota_robots" left join (select "rota_robot_versions_id", "rota_clients_id", "rota_robots_id", "version", "sha256", "size_bytes", "format" from "rota_robot_versions") "package_summaries" on "package_summaries"."rota_robot_versions_id" = "rota_robots"."rota_robot_versions_id_current" where ("rota_robots"."rota_clients_id" = $1 and ("rota_robots"."name" ilike $2 or "rota_robots"."executor" ilike $3 or "rota_robots"."description" ilike $4)) limit $5) select "rota_robots_id", "name", "description", "executor", "remote_root", "active", "current_version_id", "current_version", "task_sla_minutes", "task_risk_minutes", "task_retries", "stall_minutes", "stall_action", "created_at", "updated_at", (select count(*) from "hits") as "hit_count" from "hits" order by "hits"."name" asc, "hits"."rota_robots_id" asc limit $6 offset $7`;

interface SessionRow {
  sessions_id: number;
  expires_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  users_id: number;
  name: string;
  last_name: string;
  email: string;
  group: string;
  avatar: string | null;
  language: string | null;
  color_scheme: string | null;
  password_change_required: boolean;
  rota_clients_id_selected: number | null;
  membership_client_id: number | null;
  permissions: string[] | null;
}

class Refused extends Error {}

async function session(authorization: string | undefined): Promise<SessionRow> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token) throw new Refused();
  const hash = createHash('sha256').update(token).digest('hex');
  const { rows } = await pool.query<SessionRow>({
    name: 'rota_session_of',
    text: SESSION,
    values: [hash],
  });
  const row = rows[0];
  if (!row || row.revoked_at || row.expires_at.getTime() <= Date.now()) throw new Refused();
  const now = new Date();
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= 60_000)
    await pool.query(TOUCH, [now, row.sessions_id, new Date(now.getTime() - 60_000)]);
  return row;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const app = Fastify({ logger: false });
app.setErrorHandler((error, _request, reply) =>
  error instanceof Refused
    ? reply.code(401).send({ error: 'unauthorized' })
    : reply.code(500).send({ error: String(error) }),
);

app.post('/api/user/api/auth/v1/me', async (request) => {
  const user = await session(request.headers.authorization);
  // Rota reads the two side by side.
  const [{ rows: memberships }, { rows: mfa }] = await Promise.all([
    pool.query<{ rota_clients_id: number; name: string; permissions: string[] }>({
      name: 'rota_memberships_of',
      text: MEMBERSHIPS,
      values: [user.users_id],
    }),
    pool.query({ name: 'rota_mfa_enabled', text: MFA, values: [user.users_id] }),
  ]);
  const selected = memberships.find((m) => m.rota_clients_id === user.rota_clients_id_selected);
  return {
    users_id: user.users_id,
    email: user.email,
    name: user.name,
    last_name: user.last_name,
    permissions: selected?.permissions ?? [],
    password_change_required: user.password_change_required,
    clients: memberships.map((m) => ({ rota_clients_id: m.rota_clients_id, name: m.name })),
    rota_clients_id_selected: selected?.rota_clients_id ?? null,
    group: user.group,
    language: user.language,
    color_scheme: user.color_scheme,
    mfa_enabled: mfa.length > 0,
    avatar: user.avatar,
  };
});

app.post('/api/rota/robot/api/v1/index', async (request) => {
  const user = await session(request.headers.authorization);
  const clientId = user.membership_client_id;
  if (clientId === null || !(user.permissions ?? []).includes('ROBOS.LIST')) throw new Refused();
  const body = (request.body ?? {}) as {
    page?: number;
    per_page?: number;
    search?: string;
    active?: boolean;
  };
  const page = body.page ?? 1;
  const perPage = body.per_page ?? 20;
  const offset = (page - 1) * perPage;
  const paging = (n: number, rowCount = perPage) =>
    offset > 0
      ? ([`limit $${n} offset $${n + 1}`, [rowCount, offset]] as const)
      : ([`limit $${n}`, [rowCount]] as const);
  let rows: Promise<pgTypes.QueryResult>;
  let total: Promise<number>;
  if (body.search) {
    const pattern = likePattern(body.search);
    const probe = await pool.query(PROBE, [
      clientId,
      pattern,
      pattern,
      pattern,
      SEARCH_PROBE + 1,
      perPage,
      offset,
    ]);
    const hits = probe.rows[0] ? Number(probe.rows[0].hit_count) : offset === 0 ? 0 : undefined;
    if (hits !== undefined && hits <= SEARCH_PROBE) {
      rows = Promise.resolve(probe);
      total = Promise.resolve(hits);
    } else {
      // As lib/list-query.ts pageOf: one row more than the page, counted only when it is there.
      const [limit, values] = paging(5, perPage + 1);
      const where = `where ("rota_robots"."rota_clients_id" = $1 and ${SEARCH})`;
      const read = pool.query(`${ROBOT_COLUMNS} ${where} ${ORDER} ${limit}`, [
        clientId,
        pattern,
        pattern,
        pattern,
        ...values,
      ]);
      rows = read.then((r) => ({ ...r, rows: r.rows.slice(0, perPage) }));
      total = read.then(async (page) =>
        page.rows.length <= perPage && (page.rows.length > 0 || offset === 0)
          ? offset + page.rows.length
          : pool
              .query(
                `select count(*) from "rota_robots" where ("rota_robots"."rota_clients_id" = $1 and ${SEARCH})`,
                [clientId, pattern, pattern, pattern],
              )
              .then((r) => Number(r.rows[0].count)),
      );
    }
  } else if (body.active !== undefined) {
    // The page carries its total (robots/repository.ts); past the end it is read on its own.
    const table = 'rota_robots';
    const inactive = 'rota_robots.inactive';
    rows = pool.query({
      name: 'rota_robot_page_name_asc_active',
      text: PAGE_ACTIVE,
      values: [
        body.active,
        table,
        inactive,
        inactive,
        clientId,
        table,
        inactive,
        clientId,
        body.active,
        perPage,
        offset,
      ],
    });
    total = rows.then(async (page) => {
      if (page.rows.length > 0) return Number(page.rows[0].total_rows);
      const { rows: split } = await pool.query({
        name: 'rota_row_count_active_split',
        text: COUNT_ACTIVE_SPLIT,
        values: [table, table, clientId, table, table],
      });
      const all = Number(split[0]?.total ?? 0);
      const none = Number(split[0]?.inactive ?? 0);
      return body.active ? all - none : none;
    });
  } else {
    rows = pool.query({
      name: 'rota_robot_page_name_asc',
      text: PAGE,
      values: [clientId, 'rota_robots', clientId, perPage, offset],
    });
    total = rows.then(async (page) =>
      page.rows.length > 0
        ? Number(page.rows[0].total_rows)
        : pool
            .query({ name: 'rota_row_count', text: ROW_COUNT, values: [clientId, 'rota_robots'] })
            .then((r) => Number(r.rows[0]?.total ?? 0)),
    );
  }
  const [found, counted] = await Promise.all([rows, total]);
  return {
    data: found.rows.map((row) => ({
      rota_robots_id: row.rota_robots_id,
      name: row.name,
      description: row.description,
      executor: row.executor,
      remote_root: row.remote_root,
      active: row.active,
      // Named by their alias in the prepared statements, by the view's columns in the search.
      current_version:
        (row.current_version_id ?? row.rota_robot_versions_id ?? null) !== null
          ? {
              rota_robot_versions_id: row.current_version_id ?? row.rota_robot_versions_id,
              version: row.current_version ?? row.version,
            }
          : null,
      task_sla_minutes: row.task_sla_minutes,
      task_risk_minutes: row.task_risk_minutes,
      task_retries: row.task_retries,
      stall_minutes: row.stall_minutes,
      stall_action: row.stall_action,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    })),
    meta: { total: counted, current_page: page, per_page: perPage },
  };
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ address })}\n`);
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
