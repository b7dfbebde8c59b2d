import {
  ALERT_TEST_EVENT,
  type Alert,
  type AlertChannel,
  type AlertChannelInput,
  type AlertCreate,
  type AlertDelivery,
  type AlertDeliveryListQuery,
  type AlertFeed,
  type AlertFeedItem,
  type AlertListQuery,
  type AlertUpdate,
  type Language,
  type ListResponse,
  visibleAlertEventTypes,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso, isoOrNull } from '../../lib/list-query.js';
import { DESTINATION_NOT_ALLOWED, type OutboundPolicy } from '../../lib/outbound-address.js';
import { RateLimiter } from '../../lib/rate-limiter.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import { NOT_DELIVERED, type AlertWorker } from './alert-worker.js';
import {
  countUnread,
  deleteAlert,
  feedEvents,
  findAlert,
  findDelivery,
  insertAlert,
  insertTestDelivery,
  listAlerts,
  listDeliveries,
  markSeen,
  robotsOfScope,
  seenEventId,
  updateAlert,
  type AlertRow,
  type AlertValues,
  type DeliveryRow,
} from './repository.js';

/** The names of a rule's robots, by id (robotsOfScope's answer). */
type RobotNames = ReadonlyMap<number, string>;

/**
 * A rule as answered: the channel's public part and whether its secret is set, never the secret;
 * its robots named as `names` knows them.
 */
export function toAlert(row: AlertRow, names: RobotNames): Alert {
  const stored = row.channel as { to?: string[]; url?: string };
  const secretSet = row.channel_secret !== null;
  let channel: AlertChannel;
  switch (row.channel_type) {
    case 'email':
      channel = { type: 'email', to: stored.to ?? [] };
      break;
    case 'webhook':
      channel = { type: 'webhook', url: stored.url ?? '', secret_set: secretSet };
      break;
    case 'slack':
      channel = { type: 'slack', url_set: secretSet };
      break;
    default:
      channel = { type: 'teams', url_set: secretSet };
  }
  return {
    rota_alerts_id: row.rota_alerts_id,
    name: row.name,
    active: row.active,
    events: row.events as Alert['events'],
    rota_robots_ids: row.robot_ids,
    robots: row.robot_ids.flatMap((id) => {
      const name = names.get(id);
      return name === undefined ? [] : [{ rota_robots_id: id, name }];
    }),
    channel,
    language: row.language === 'pt' ? 'pt' : 'en',
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/**
 * A failure as the log tells it: its code. Rows written before the log kept only codes hold the
 * transport's words (ECONNREFUSED, a timeout), which are answered as "not delivered" too.
 */
function logged(lastError: string | null): string | null {
  if (lastError === null || lastError === DESTINATION_NOT_ALLOWED) return lastError;
  return NOT_DELIVERED;
}

export function toDelivery(row: DeliveryRow): AlertDelivery {
  return {
    rota_alert_deliveries_id: Number(row.rota_alert_deliveries_id),
    delivery_uid: row.delivery_uid,
    rota_alerts_id: row.rota_alerts_id,
    event_type: row.event_type,
    rota_robots_id: row.rota_robots_id,
    robot_name: row.robot_name ?? null,
    count: row.count,
    status: row.status as AlertDelivery['status'],
    attempts: row.attempts,
    response_code: row.response_code,
    last_error: logged(row.last_error),
    next_attempt_at: isoOrNull(row.next_attempt_at),
    delivered_at: isoOrNull(row.delivered_at),
    created_at: iso(row.created_at),
  };
}

/** "Send test" a minute, per user and per client. */
export const ALERT_TESTS_PER_USER_PER_MINUTE = 5;
export const ALERT_TESTS_PER_CLIENT_PER_MINUTE = 20;

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_alert_name' }]);

/** The stored channel: its public part, its sealed part (null: none). */
interface StoredChannel {
  channel_type: string;
  channel: Record<string, unknown>;
  channel_secret: string | null;
}

/**
 * Alert rules: which events of a client go to which channel, the delivery log, the
 * "send test" button and the header's bell. Secrets (a webhook's signing secret, a Slack or
 * Teams URL) are sealed at rest and never answered.
 */
export class AlertService {
  private readonly testLimiter: RateLimiter;

  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly secretBox: SecretBox,
    readonly worker: AlertWorker,
    private readonly outbound: OutboundPolicy,
    private readonly clock: Clock = systemClock,
  ) {
    this.testLimiter = new RateLimiter(db, 60);
  }

  async list(scope: TenantScope, query: AlertListQuery): Promise<ListResponse<Alert>> {
    const page = await listAlerts(this.db, scope, query, (row) => row);
    // One statement names the robots of the whole page.
    const names = await this.robotNames(
      this.db,
      scope,
      page.data.flatMap((row) => row.robot_ids),
    );
    return { ...page, data: page.data.map((row) => toAlert(row, names)) };
  }

  show(scope: TenantScope, id: number): Promise<Alert> {
    return this.showIn(this.db, scope, id);
  }

  /** `language` left out: the author's (`lang`, from Accept-Language). */
  async create(
    scope: TenantScope,
    input: AlertCreate,
    author: AuditAuthor,
    lang: Language,
  ): Promise<Alert> {
    await this.checkRobots(scope, input.rota_robots_ids);
    const channel = this.channelOf(input.channel, null);
    return this.write(() =>
      this.audit.recorded(
        author,
        auditOf.created('alert', (alert: Alert) => alert.rota_alerts_id),
        async (tx) =>
          this.showIn(
            tx,
            scope,
            await insertAlert(tx, scope, {
              name: input.name,
              active: input.active,
              events: input.events,
              robot_ids: input.rota_robots_ids,
              language: input.language ?? lang,
              ...channel,
            }),
          ),
      ),
    );
  }

  async update(
    scope: TenantScope,
    { id, ...changes }: AlertUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    const current = await findAlert(this.db, scope, id);
    if (!current) throw notFound();
    if (changes.rota_robots_ids) await this.checkRobots(scope, changes.rota_robots_ids);
    const values: Partial<AlertValues> = {
      name: changes.name,
      active: changes.active,
      events: changes.events,
      robot_ids: changes.rota_robots_ids,
      language: changes.language,
      ...(changes.channel ? this.channelOf(changes.channel, current) : {}),
    };
    for (const key of Object.keys(values) as (keyof AlertValues)[]) {
      if (values[key] === undefined) delete values[key];
    }
    await this.write(() =>
      this.audit.recorded(
        author,
        auditOf.changed('alert', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if (!(await updateAlert(tx, scope, id, values))) throw notFound();
        },
      ),
    );
  }

  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('alert', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await deleteAlert(tx, scope, id))) throw notFound();
      },
    );
  }

  /** A rule's deliveries, newest first; another client's rule is not found. */
  async deliveries(
    scope: TenantScope,
    query: AlertDeliveryListQuery,
  ): Promise<ListResponse<AlertDelivery>> {
    if (!(await findAlert(this.db, scope, query.rota_alerts_id))) throw notFound();
    return listDeliveries(this.db, scope, query, toDelivery);
  }

  /**
   * "Send test": an `alert.test` delivery of the rule, attempted once at once and answered after
   * that attempt (never retried: the worker gives a test up after one try). Throttled per user
   * and per client (429), so the button cannot be driven as a scanner.
   */
  async sendTest(scope: TenantScope, usersId: number, id: number): Promise<AlertDelivery> {
    const [byUser, byClient] = await Promise.all([
      this.testLimiter.hit(`alert-test:user:${usersId}`),
      this.testLimiter.hit(`alert-test:client:${scope.clientId}`),
    ]);
    if (byUser > ALERT_TESTS_PER_USER_PER_MINUTE || byClient > ALERT_TESTS_PER_CLIENT_PER_MINUTE) {
      throw new AppError('too_many_requests', undefined, 60);
    }
    if (!(await findAlert(this.db, scope, id))) throw notFound();
    const deliveryId = await insertTestDelivery(
      this.db,
      scope,
      id,
      ALERT_TEST_EVENT,
      this.clock.now(),
    );
    await this.worker.attemptNow(deliveryId);
    const row = await findDelivery(this.db, deliveryId);
    if (!row) throw notFound();
    return toDelivery(row);
  }

  /**
   * The bell: the client's latest events the user may see (of the types `permissions` show, of
   * the robots the scope sees), and how many of those are unread.
   */
  async feed(
    scope: TenantScope,
    userId: number,
    permissions: readonly string[],
    limit: number,
  ): Promise<AlertFeed> {
    const types = visibleAlertEventTypes(permissions);
    const seen = await seenEventId(this.db, scope, userId);
    const [events, unread] = await Promise.all([
      feedEvents(this.db, scope, types, limit),
      countUnread(this.db, scope, types, seen),
    ]);
    return {
      data: events.map((e): AlertFeedItem => ({
        rota_alert_events_id: Number(e.rota_alert_events_id),
        event_uid: e.event_uid,
        type: e.type as AlertFeedItem['type'],
        occurred_at: iso(e.occurred_at),
        rota_robots_id: e.rota_robots_id,
        robot_name: e.robot_name ?? null,
        data: e.data,
        unread: Number(e.rota_alert_events_id) > seen,
      })),
      unread,
    };
  }

  seen(scope: TenantScope, userId: number, upTo: number): Promise<void> {
    return markSeen(this.db, scope, userId, upTo);
  }

  private async checkRobots(scope: TenantScope, ids: readonly number[]) {
    const found = await this.robotNames(this.db, scope, ids);
    if (ids.some((id) => !found.has(id))) throw invalidField('rota_robots_ids', 'robot_not_found');
  }

  private async robotNames(
    db: Db,
    scope: TenantScope,
    ids: readonly number[],
  ): Promise<RobotNames> {
    const robots = await robotsOfScope(db, scope, [...new Set(ids)]);
    return new Map(robots.map((robot) => [robot.rota_robots_id, robot.name]));
  }

  /**
   * The channel to store. A webhook's secret or a chat URL left out keeps the stored one while
   * the type stays the same; otherwise it is required.
   */
  private channelOf(input: AlertChannelInput, current: AlertRow | null): StoredChannel {
    const keep = current && current.channel_type === input.type ? current.channel_secret : null;
    switch (input.type) {
      case 'email':
        return {
          channel_type: 'email',
          channel: { type: 'email', to: input.to },
          channel_secret: null,
        };
      case 'webhook': {
        if (this.outbound.refusesUrl(input.url)) {
          throw invalidField('channel.url', 'destination_not_allowed');
        }
        const secret = input.secret ? this.secretBox.seal(input.secret) : keep;
        if (!secret) throw invalidField('channel.secret', 'required_secret');
        return {
          channel_type: 'webhook',
          channel: { type: 'webhook', url: input.url },
          channel_secret: secret,
        };
      }
      default: {
        if (input.url && this.outbound.refusesUrl(input.url)) {
          throw invalidField('channel.url', 'destination_not_allowed');
        }
        const url = input.url ? this.secretBox.seal(input.url) : keep;
        if (!url) throw invalidField('channel.url', 'invalid_url');
        return { channel_type: input.type, channel: { type: input.type }, channel_secret: url };
      }
    }
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Alert> {
    const row = await findAlert(db, scope, id);
    if (!row) throw notFound();
    return toAlert(row, await this.robotNames(db, scope, row.robot_ids));
  }

  private async write<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }
}
